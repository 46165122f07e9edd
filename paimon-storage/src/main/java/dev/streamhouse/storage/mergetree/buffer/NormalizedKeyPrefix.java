package dev.streamhouse.storage.mergetree.buffer;

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.DecimalType;
import dev.streamhouse.storage.types.RowType;
import dev.streamhouse.storage.types.TimestampType;

import java.util.Arrays;

/**
 * Packs the leading key fields into one 64-bit prefix whose <em>unsigned</em> order never contradicts the
 * key order: {@code prefix(a) < prefix(b)} implies {@code a < b}. Equal prefixes need a full key compare
 * unless {@link #isDetermining()} (all key fields are fixed-size and fit in the 8 bytes, e.g. INT, BIGINT
 * or INT+INT keys), in which case equal prefixes mean equal keys.
 *
 * <p>Fixed-size fields are mapped to order-preserving unsigned bytes (sign bit flipped; floating point
 * as in {@code Float.compare}) and packed big-end first; a string or binary field takes the remaining
 * bytes of its value (zero-padded) and ends the prefix. Key fields must not be NULL.
 */
final class NormalizedKeyPrefix {
    private static final int BOOLEAN = 0;
    private static final int TINYINT = 1;
    private static final int SMALLINT = 2;
    private static final int INT = 3;
    private static final int LONG = 4;
    private static final int FLOAT = 5;
    private static final int DOUBLE = 6;
    private static final int DECIMAL = 7;
    private static final int TIMESTAMP = 8;
    private static final int STRING = 9;
    private static final int BINARY = 10;

    private final int[] kinds;
    private final int[] widths;
    private final int[] precisions;
    private final int[] scales;
    private final boolean determining;

    NormalizedKeyPrefix(RowType keyType) {
        int n = keyType.fieldCount();
        int[] k = new int[n];
        int[] w = new int[n];
        precisions = new int[n];
        scales = new int[n];
        int used = 0;
        int packed = 0;
        boolean exact = true;
        for (int i = 0; i < n && used < 8; i++) {
            DataType type = keyType.typeAt(i);
            int kind = kindOf(type);
            int width = widthOf(kind);
            if (kind < 0 || width > 8 - used) {
                exact = false;
                break;
            }
            k[packed] = kind;
            w[packed] = width == 0 ? 8 - used : width;
            if (type instanceof DecimalType) {
                precisions[packed] = ((DecimalType) type).precision();
                scales[packed] = ((DecimalType) type).scale();
            } else if (type instanceof TimestampType) {
                precisions[packed] = ((TimestampType) type).precision();
            }
            used += w[packed];
            packed++;
            if (width == 0 || (kind == TIMESTAMP && !((TimestampType) type).isCompact())) {
                exact = false;
                break;
            }
        }
        this.kinds = Arrays.copyOf(k, packed);
        this.widths = Arrays.copyOf(w, packed);
        this.determining = exact && packed == n;
    }

    /** Kind of a field, or -1 when it cannot be packed. */
    private static int kindOf(DataType type) {
        switch (type.root()) {
            case BOOLEAN:
                return BOOLEAN;
            case TINYINT:
                return TINYINT;
            case SMALLINT:
                return SMALLINT;
            case INTEGER:
            case DATE:
            case TIME_WITHOUT_TIME_ZONE:
                return INT;
            case BIGINT:
                return LONG;
            case FLOAT:
                return FLOAT;
            case DOUBLE:
                return DOUBLE;
            case DECIMAL:
                return ((DecimalType) type).isCompact() ? DECIMAL : -1;
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return TIMESTAMP;
            case CHAR:
            case VARCHAR:
                return STRING;
            case BINARY:
            case VARBINARY:
                return BINARY;
            default:
                return -1;
        }
    }

    /** Bytes of a packed field; 0 for variable-length fields (they take what is left). */
    private static int widthOf(int kind) {
        switch (kind) {
            case BOOLEAN:
            case TINYINT:
                return 1;
            case SMALLINT:
                return 2;
            case INT:
            case FLOAT:
                return 4;
            case LONG:
            case DOUBLE:
            case DECIMAL:
            case TIMESTAMP:
                return 8;
            default:
                return 0;
        }
    }

    /** Whether equal prefixes imply equal keys. */
    boolean isDetermining() {
        return determining;
    }

    /** The prefix of {@code key}; its packed fields must not be null. */
    long prefix(InternalRow key) {
        long prefix = 0;
        int used = 0;
        for (int i = 0; i < kinds.length; i++) {
            int width = widths[i];
            long v;
            switch (kinds[i]) {
                case BOOLEAN:
                    v = key.booleanAt(i) ? 1 : 0;
                    break;
                case TINYINT:
                    v = (key.byteAt(i) ^ 0x80) & 0xFFL;
                    break;
                case SMALLINT:
                    v = (key.shortAt(i) ^ 0x8000) & 0xFFFFL;
                    break;
                case INT:
                    v = (key.intAt(i) ^ 0x80000000) & 0xFFFFFFFFL;
                    break;
                case LONG:
                    v = key.longAt(i) ^ Long.MIN_VALUE;
                    break;
                case FLOAT: {
                    int bits = Float.floatToIntBits(key.floatAt(i));
                    v = (bits ^ ((bits >> 31) | 0x80000000)) & 0xFFFFFFFFL;
                    break;
                }
                case DOUBLE: {
                    long bits = Double.doubleToLongBits(key.doubleAt(i));
                    v = bits ^ ((bits >> 63) | Long.MIN_VALUE);
                    break;
                }
                case DECIMAL:
                    v = key.decimalAt(i, precisions[i], scales[i]).toUnscaledLong() ^ Long.MIN_VALUE;
                    break;
                case TIMESTAMP:
                    v = key.timestampAt(i, precisions[i]).millisecond() ^ Long.MIN_VALUE;
                    break;
                case STRING: {
                    BinaryString s = key.stringAt(i);
                    v = leadingBytes(s.rawBytes(), s.rawOffset(), s.byteLength(), width);
                    break;
                }
                case BINARY: {
                    byte[] b = key.binaryAt(i);
                    v = leadingBytes(b, 0, b.length, width);
                    break;
                }
                default:
                    throw new IllegalStateException("Unknown prefix kind " + kinds[i]);
            }
            prefix = width == 8 ? v : (prefix << (width * 8)) | v;
            used += width;
        }
        return used == 0 ? 0 : used == 8 ? prefix : prefix << ((8 - used) * 8);
    }

    private static long leadingBytes(byte[] bytes, int offset, int length, int width) {
        long v = 0;
        for (int j = 0; j < width; j++) {
            v = (v << 8) | (j < length ? bytes[offset + j] & 0xFFL : 0);
        }
        return v;
    }
}
