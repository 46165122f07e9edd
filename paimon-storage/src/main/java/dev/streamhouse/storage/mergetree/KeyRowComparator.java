package dev.streamhouse.storage.mergetree;

import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.DecimalType;
import dev.streamhouse.storage.types.RowType;
import dev.streamhouse.storage.types.TimestampType;

import java.util.Arrays;
import java.util.Comparator;

/**
 * Orders rows field by field by the format's natural order (docs/format.md §6.4) like
 * {@link dev.streamhouse.storage.mergetree.KeyComparator}, but reads primitives through the typed
 * accessors, so comparing (e.g. BinaryRow) keys boxes nothing. NULL sorts before any value.
 * Stateless after construction and thread-safe.
 */
public final class KeyRowComparator implements Comparator<InternalRow> {

    /** Compares field {@code pos} of two rows, both non-null there. */
    @FunctionalInterface
    private interface FieldComparator {
        int compare(InternalRow a, InternalRow b, int pos);
    }

    private final FieldComparator[] fields;
    private final int[] positions;
    private final IntegralKey integralKey;

    /** Compares all fields of rows of {@code rowType}, in order. */
    public KeyRowComparator(RowType rowType) {
        this(rowType, identity(rowType.fieldCount()));
    }

    /** Compares the fields at {@code positions} (in that order) of rows of {@code rowType}. */
    public KeyRowComparator(RowType rowType, int[] positions) {
        this.positions = positions.clone();
        this.fields = new FieldComparator[positions.length];
        for (int i = 0; i < fields.length; i++) {
            fields[i] = forType(rowType.typeAt(positions[i]));
        }
        this.integralKey = integralKeyOf(rowType, this.positions);
    }

    private static int[] identity(int n) {
        int[] p = new int[n];
        for (int i = 0; i < n; i++) {
            p[i] = i;
        }
        return p;
    }

    @Override
    public int compare(InternalRow a, InternalRow b) {
        for (int i = 0; i < fields.length; i++) {
            int pos = positions[i];
            boolean nullA = a.isNullAt(pos);
            boolean nullB = b.isNullAt(pos);
            if (nullA || nullB) {
                if (nullA != nullB) {
                    return nullA ? -1 : 1;
                }
                continue;
            }
            int c = fields[i].compare(a, b, pos);
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    /**
     * For a comparator over a single integral field ({@code TINYINT}, {@code SMALLINT}, {@code INTEGER},
     * {@code DATE}, {@code TIME}, {@code BIGINT}): a reader of that field as a {@code long}, which orders
     * like this comparator (NULL first); otherwise null. Lets a merge compare cached longs.
     */
    public IntegralKey integralKey() {
        return integralKey;
    }

    /** The value of a key's single integral field, widened to a {@code long}; see {@link #integralKey()}. */
    public static final class IntegralKey {
        private final int pos;
        /** Width of the field in bytes: 8, 4, 2 or 1. */
        private final int width;

        private IntegralKey(int pos, int width) {
            this.pos = pos;
            this.width = width;
        }

        public boolean isNull(InternalRow key) {
            return key.isNullAt(pos);
        }

        /** The field's value; the field must not be null. */
        public long value(InternalRow key) {
            switch (width) {
                case 8:
                    return key.longAt(pos);
                case 4:
                    return key.intAt(pos);
                case 2:
                    return key.shortAt(pos);
                default:
                    return key.byteAt(pos);
            }
        }
    }

    private static IntegralKey integralKeyOf(RowType rowType, int[] positions) {
        if (positions.length != 1) {
            return null;
        }
        switch (rowType.typeAt(positions[0]).root()) {
            case BIGINT:
                return new IntegralKey(positions[0], 8);
            case INTEGER:
            case DATE:
            case TIME_WITHOUT_TIME_ZONE:
                return new IntegralKey(positions[0], 4);
            case SMALLINT:
                return new IntegralKey(positions[0], 2);
            case TINYINT:
                return new IntegralKey(positions[0], 1);
            default:
                return null;
        }
    }

    private static FieldComparator forType(DataType type) {
        switch (type.root()) {
            case BOOLEAN:
                return (a, b, p) -> Boolean.compare(a.booleanAt(p), b.booleanAt(p));
            case TINYINT:
                return (a, b, p) -> Byte.compare(a.byteAt(p), b.byteAt(p));
            case SMALLINT:
                return (a, b, p) -> Short.compare(a.shortAt(p), b.shortAt(p));
            case INTEGER:
            case DATE:
            case TIME_WITHOUT_TIME_ZONE:
                return (a, b, p) -> Integer.compare(a.intAt(p), b.intAt(p));
            case BIGINT:
                return (a, b, p) -> Long.compare(a.longAt(p), b.longAt(p));
            case FLOAT:
                return (a, b, p) -> Float.compare(a.floatAt(p), b.floatAt(p));
            case DOUBLE:
                return (a, b, p) -> Double.compare(a.doubleAt(p), b.doubleAt(p));
            case CHAR:
            case VARCHAR:
                return (a, b, p) -> a.stringAt(p).compareTo(b.stringAt(p));
            case BINARY:
            case VARBINARY:
                return (a, b, p) -> Arrays.compareUnsigned(a.binaryAt(p), b.binaryAt(p));
            case DECIMAL: {
                DecimalType d = (DecimalType) type;
                int precision = d.precision();
                int scale = d.scale();
                if (precision <= DecimalType.MAX_COMPACT_PRECISION) {
                    // same scale on both sides, so the unscaled values order like the decimals
                    return (a, b, p) -> Long.compare(a.decimalAt(p, precision, scale).toUnscaledLong(),
                            b.decimalAt(p, precision, scale).toUnscaledLong());
                }
                return (a, b, p) -> a.decimalAt(p, precision, scale).compareTo(b.decimalAt(p, precision, scale));
            }
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE: {
                int precision = ((TimestampType) type).precision();
                return (a, b, p) -> a.timestampAt(p, precision).compareTo(b.timestampAt(p, precision));
            }
            default:
                throw new IllegalArgumentException("Cannot order rows by a column of type " + type);
        }
    }
}
