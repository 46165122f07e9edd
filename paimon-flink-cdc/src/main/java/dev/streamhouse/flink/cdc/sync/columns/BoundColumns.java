package dev.streamhouse.flink.cdc.sync.columns;

import dev.streamhouse.flink.cdc.event.CdcRecord;
import dev.streamhouse.flink.cdc.event.CdcTableId;
import dev.streamhouse.storage.types.DataType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * The computed and metadata columns of one source table's schema ({@link ExtraColumns#bind}): their
 * names and types, and their values for a row image of a change, which extend the source's values
 * (positions from the source's column count on). A computed column is NULL when the column it reads
 * is NULL (as in Paimon), {@code now()} and {@code cast} never are. Not thread-safe.
 */
public final class BoundColumns {
    private final CdcTableId table;
    private final int sourceArity;
    private final List<Column> columns;

    /**
     * One added column.
     *
     * @param computed its {@code --computed_column}, null for a metadata column
     * @param input the position of the value the function reads, -1 for none
     * @param evaluation the function, null when the value is always NULL (input dropped at the source)
     * @param metadata its {@code --metadata_column}, null for a computed column
     */
    record Column(String name, DataType type, ComputedColumn computed, int input, UnaryOperator<Object> evaluation,
            MetadataColumn metadata) {}

    BoundColumns(CdcTableId table, int sourceArity, List<Column> columns) {
        this.table = table;
        this.sourceArity = sourceArity;
        this.columns = List.copyOf(columns);
    }

    /** The added columns' names, in order. */
    public List<String> names() {
        List<String> names = new ArrayList<>();
        columns.forEach(c -> names.add(c.name()));
        return names;
    }

    /** The added columns' types (NOT NULL for metadata columns and primary-key columns), in order. */
    public List<DataType> types() {
        List<DataType> types = new ArrayList<>();
        columns.forEach(c -> types.add(c.type()));
        return types;
    }

    /** The position of an added column's value in {@link #extend}'s result; -1 if there is none. */
    public int indexOf(String name) {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).name().equals(name)) {
                return sourceArity + i;
            }
        }
        return -1;
    }

    /**
     * The values of a row image of {@code record} followed by the added columns' values.
     *
     * @throws IllegalArgumentException naming the computed column, the source table and the value if
     *     the function has no result for it (e.g. a string that is no date)
     */
    public Object[] extend(Object[] values, CdcRecord record) {
        Object[] out = Arrays.copyOf(values, sourceArity + columns.size());
        for (int i = 0; i < columns.size(); i++) {
            Column c = columns.get(i);
            if (c.metadata() != null) {
                out[sourceArity + i] = c.metadata().value(record);
            } else if (c.evaluation() != null) {
                Object input = c.input() < 0 ? null : out[c.input()];
                if (c.input() < 0 || input != null) {
                    out[sourceArity + i] = evaluate(c, input);
                }
            }
        }
        return out;
    }

    private Object evaluate(Column c, Object input) {
        try {
            return c.evaluation().apply(input);
        } catch (RuntimeException e) {
            String shown = input instanceof byte[] b ? b.length + " bytes" : String.valueOf(input);
            throw new IllegalArgumentException("Cannot compute column '" + c.name() + "' (--computed_column '"
                    + c.computed().argument() + "') of a row of source table " + table + " from value '" + shown
                    + "': " + e.getMessage(), e);
        }
    }
}
