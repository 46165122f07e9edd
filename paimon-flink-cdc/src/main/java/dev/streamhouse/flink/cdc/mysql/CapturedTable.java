package dev.streamhouse.flink.cdc.mysql;

import dev.streamhouse.flink.cdc.event.CdcSchema;
import dev.streamhouse.flink.cdc.event.CdcTableId;
import java.io.Serializable;
import java.util.List;
import java.util.Objects;

/**
 * A captured table as {@link TableDiscovery} read it: its schema, and per column what decoding its
 * values from the binlog and ordering its keys need besides the type: the character set and
 * collation of character columns and the members of ENUM and SET columns.
 */
public final class CapturedTable implements Serializable {
    private static final long serialVersionUID = 1L;

    private final CdcSchema schema;
    private final List<ColumnEncoding> encodings;

    public CapturedTable(CdcSchema schema, List<ColumnEncoding> encodings) {
        this.schema = Objects.requireNonNull(schema, "schema");
        this.encodings = List.copyOf(encodings);
        if (encodings.size() != schema.columns().size()) {
            throw new IllegalArgumentException("Table " + schema.table() + " has " + schema.columns().size()
                    + " columns but " + encodings.size() + " column encodings");
        }
    }

    public CdcTableId id() {
        return schema.table();
    }

    public CdcSchema schema() {
        return schema;
    }

    public List<ColumnEncoding> encodings() {
        return encodings;
    }

    public ColumnEncoding encoding(int column) {
        return encodings.get(column);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CapturedTable other && schema.equals(other.schema) && encodings.equals(other.encodings);
    }

    @Override
    public int hashCode() {
        return Objects.hash(schema, encodings);
    }

    @Override
    public String toString() {
        return schema.toString();
    }

    /**
     * How a column's values are encoded: the character set and collation of a character column (both
     * null for other columns), and the members of an ENUM or SET column in declaration order (empty
     * for other columns).
     */
    public record ColumnEncoding(String charset, String collation, List<String> members) implements Serializable {

        public ColumnEncoding {
            members = List.copyOf(members);
        }

        public static ColumnEncoding none() {
            return new ColumnEncoding(null, null, List.of());
        }
    }
}
