package dev.streamhouse.flink.cdc.mysql.snapshot;

import dev.streamhouse.flink.cdc.event.CdcColumn;
import dev.streamhouse.flink.cdc.event.CdcSchema;
import dev.streamhouse.flink.cdc.event.MySqlType;
import dev.streamhouse.flink.cdc.mysql.CapturedTable;
import java.io.Serializable;
import java.math.BigDecimal;
import java.nio.charset.Charset;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Orders a table's primary-key values as the server does, so that Java code can tell which chunk
 * a key falls into exactly as the chunk's {@code WHERE} clause decided it. Keys are the values of
 * the key columns in key order, typed as {@code MySqlType} documents. Numbers, temporal values,
 * BIT, binary strings, ENUM (by member position) and character columns with a binary collation
 * ({@code *_bin}: their bytes in the column's character set, padded with spaces unless the
 * collation is NO PAD) compare in Java. CHAR and VARCHAR columns in a linguistic collation
 * ({@code utf8mb4_general_ci}, ...) compare by the server's weight strings ({@link
 * CollationWeights}, padded to the column's length for PAD SPACE collations, as the server sorts);
 * such an order needs a weight source ({@link #needsWeights()}). Other key types are refused.
 */
public final class KeyOrder implements Comparator<Object[]>, Serializable {
    private static final long serialVersionUID = 1L;

    private final ValueOrder[] columns;
    private final int[] keyIndexes;

    private KeyOrder(ValueOrder[] columns, int[] keyIndexes) {
        this.columns = columns;
        this.keyIndexes = keyIndexes;
    }

    /**
     * The order of {@code table}'s primary key; fails naming the table and column when the key is
     * missing or a key column's order cannot be reproduced.
     */
    public static KeyOrder of(CapturedTable table) {
        CdcSchema schema = table.schema();
        List<String> keys = schema.primaryKeys();
        if (keys.isEmpty()) {
            throw new UnsupportedChunkKeyException("Cannot snapshot MySQL table " + table.id() + " in chunks: it has "
                    + "no primary key to split it by. Add one, or read it with Debezium's snapshot "
                    + "('scan.incremental.snapshot.enabled' = 'false')");
        }
        ValueOrder[] orders = new ValueOrder[keys.size()];
        int[] indexes = new int[keys.size()];
        for (int k = 0; k < keys.size(); k++) {
            int index = schema.indexOf(keys.get(k));
            CdcColumn column = schema.columns().get(index);
            indexes[k] = index;
            orders[k] = orderOf(table, column, table.encoding(index));
        }
        return new KeyOrder(orders, indexes);
    }

    /** The key of a row of the table (values in key order). */
    public Object[] keyOf(Object[] row) {
        Object[] key = new Object[keyIndexes.length];
        for (int i = 0; i < key.length; i++) {
            key[i] = row[keyIndexes[i]];
        }
        return key;
    }

    public int keyArity() {
        return keyIndexes.length;
    }

    /** True when a key column compares by the server's weight strings. */
    public boolean needsWeights() {
        for (ValueOrder c : columns) {
            if (c instanceof CollatedOrder) {
                return true;
            }
        }
        return false;
    }

    /** Compares keys without weight strings: fails for an order that {@link #needsWeights()}. */
    @Override
    public int compare(Object[] a, Object[] b) {
        return compare(a, b, null);
    }

    public int compare(Object[] a, Object[] b, CollationWeights weights) {
        for (int i = 0; i < columns.length; i++) {
            int c = columns[i].compare(a[i], b[i], weights);
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    private static ValueOrder orderOf(CapturedTable table, CdcColumn column, CapturedTable.ColumnEncoding encoding) {
        return switch (column.type().family()) {
            case TINYINT, SMALLINT, MEDIUMINT, INT, BIGINT, YEAR, DECIMAL, FLOAT, DOUBLE -> new NumericOrder();
            case DATE, DATETIME, TIMESTAMP, TIME -> new NaturalOrder();
            case BIT -> column.type().length() <= 1 ? new NaturalOrder() : new BytesOrder();
            case BINARY, VARBINARY, BLOB -> new BytesOrder();
            case ENUM -> new EnumOrder(encoding.members());
            case CHAR, VARCHAR, TEXT -> charactersOrder(table, column, encoding);
            case BOOLEAN, SET, JSON, SPATIAL, OTHER -> throw new UnsupportedChunkKeyException("Cannot snapshot MySQL "
                    + "table " + table.id() + " in chunks: its key column '" + column.name() + "' is "
                    + column.type() + ", whose order the chunked snapshot cannot reproduce; read it with Debezium's "
                    + "snapshot ('scan.incremental.snapshot.enabled' = 'false')");
        };
    }

    private static ValueOrder charactersOrder(CapturedTable table, CdcColumn column,
            CapturedTable.ColumnEncoding encoding) {
        String collation = encoding.collation() == null ? "" : encoding.collation().toLowerCase(Locale.ROOT);
        Charset charset = MySqlCharsets.forName(encoding.charset());
        boolean padSpace = !collation.contains("nopad") && !collation.contains("_0900_");
        if (collation.endsWith("_bin") && charset != null) {
            return new CharactersOrder(charset.name(), padSpace);
        }
        MySqlType.Family family = column.type().family();
        if (collation.isEmpty() || encoding.charset() == null
                || !(family == MySqlType.Family.CHAR || family == MySqlType.Family.VARCHAR)
                || column.type().length() <= 0) {
            throw new UnsupportedChunkKeyException("Cannot snapshot MySQL table " + table.id() + " in chunks: its key "
                    + "column '" + column.name() + "' is " + column.type() + " with collation " + encoding.collation()
                    + " (character set " + encoding.charset() + "), whose order the chunked snapshot cannot reproduce "
                    + "(it can for CHAR and VARCHAR keys). Read it with Debezium's snapshot "
                    + "('scan.incremental.snapshot.enabled' = 'false')");
        }
        return new CollatedOrder(encoding.charset(), encoding.collation(), padSpace ? column.type().length() : 0);
    }

    /** Orders the values of one key column. */
    private interface ValueOrder extends Serializable {
        int compare(Object a, Object b, CollationWeights weights);
    }

    private static final class NumericOrder implements ValueOrder {
        private static final long serialVersionUID = 1L;

        @Override
        public int compare(Object a, Object b, CollationWeights weights) {
            if (a instanceof Long x && b instanceof Long y) {
                return Long.compare(x, y);
            }
            if (a instanceof BigDecimal x && b instanceof BigDecimal y) {
                return x.compareTo(y);
            }
            if ((a instanceof Double || a instanceof Float) && (b instanceof Double || b instanceof Float)) {
                return Double.compare(((Number) a).doubleValue(), ((Number) b).doubleValue());
            }
            return new BigDecimal(a.toString()).compareTo(new BigDecimal(b.toString()));
        }
    }

    private static final class NaturalOrder implements ValueOrder {
        private static final long serialVersionUID = 1L;

        @Override
        @SuppressWarnings({"unchecked", "rawtypes"})
        public int compare(Object a, Object b, CollationWeights weights) {
            return ((Comparable) a).compareTo(b);
        }
    }

    private static final class BytesOrder implements ValueOrder {
        private static final long serialVersionUID = 1L;

        @Override
        public int compare(Object a, Object b, CollationWeights weights) {
            return compareUnsigned((byte[]) a, (byte[]) b, false);
        }
    }

    private static final class EnumOrder implements ValueOrder {
        private static final long serialVersionUID = 1L;
        private final List<String> members;

        EnumOrder(List<String> members) {
            this.members = members;
        }

        @Override
        public int compare(Object a, Object b, CollationWeights weights) {
            return Integer.compare(members.indexOf((String) a), members.indexOf((String) b));
        }
    }

    private static final class CharactersOrder implements ValueOrder {
        private static final long serialVersionUID = 1L;
        private final String charset;
        private final boolean padSpace;
        private transient Charset resolved;

        CharactersOrder(String charset, boolean padSpace) {
            this.charset = charset;
            this.padSpace = padSpace;
        }

        @Override
        public int compare(Object a, Object b, CollationWeights weights) {
            if (resolved == null) {
                resolved = Charset.forName(charset);
            }
            return compareUnsigned(((String) a).getBytes(resolved), ((String) b).getBytes(resolved), padSpace);
        }
    }

    /** Character values in a linguistic collation, by the server's weight strings. */
    private static final class CollatedOrder implements ValueOrder {
        private static final long serialVersionUID = 1L;
        private final String charset;
        private final String collation;
        private final int padLength;

        CollatedOrder(String charset, String collation, int padLength) {
            this.charset = charset;
            this.collation = collation;
            this.padLength = padLength;
        }

        @Override
        public int compare(Object a, Object b, CollationWeights weights) {
            if (weights == null) {
                throw new IllegalStateException("Keys in collation " + collation + " compare by the server's weight "
                        + "strings; no weight source was given");
            }
            return compareUnsigned(weights.weight((String) a, charset, collation, padLength),
                    weights.weight((String) b, charset, collation, padLength), false);
        }
    }

    /**
     * Unsigned byte order; with {@code padSpace} the shorter value compares as if padded with spaces
     * (MySQL's PAD SPACE collations: {@code 'a'} equals {@code 'a '} and sorts after {@code 'a\t'}).
     */
    static int compareUnsigned(byte[] a, byte[] b, boolean padSpace) {
        int common = Math.min(a.length, b.length);
        for (int i = 0; i < common; i++) {
            int c = Integer.compare(a[i] & 0xff, b[i] & 0xff);
            if (c != 0) {
                return c;
            }
        }
        if (!padSpace) {
            return Integer.compare(a.length, b.length);
        }
        byte[] longer = a.length > b.length ? a : b;
        int sign = a.length > b.length ? 1 : -1;
        for (int i = common; i < longer.length; i++) {
            int c = Integer.compare(longer[i] & 0xff, ' ');
            if (c != 0) {
                return sign * c;
            }
        }
        return 0;
    }
}
