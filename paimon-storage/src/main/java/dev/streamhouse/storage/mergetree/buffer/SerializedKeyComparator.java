package dev.streamhouse.storage.mergetree.buffer;

import dev.streamhouse.storage.data.InternalRowUtils;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.DecimalType;
import dev.streamhouse.storage.types.RowType;
import dev.streamhouse.storage.types.TimestampType;

import java.math.BigInteger;
import java.util.Arrays;

/**
 * Compares two keys serialized by {@link RowSerializer} directly on their bytes, in the order of
 * {@link dev.streamhouse.storage.mergetree.KeyComparator} (docs/format.md §6.4): signed numbers, {@code Float.compare}
 * for floating point, unsigned-bytewise strings and binaries, NULL first. Nothing is deserialized except
 * DECIMAL(p > 18). Not thread-safe (it keeps two read cursors); use one instance per thread.
 */
final class SerializedKeyComparator {
    private static final int BYTE = 0;
    private static final int SHORT = 1;
    private static final int INT = 2;
    private static final int LONG = 3;
    private static final int FLOAT = 4;
    private static final int DOUBLE = 5;
    private static final int BYTES = 6;
    private static final int BIG_DECIMAL = 7;
    private static final int TIMESTAMP_NANOS = 8;

    private final int[] kinds;
    private final int bitmapBytes;
    private final boolean canonical;
    private int posA;
    private int posB;

    SerializedKeyComparator(RowType keyType) {
        this.kinds = new int[keyType.fieldCount()];
        for (int i = 0; i < kinds.length; i++) {
            kinds[i] = kindOf(keyType.typeAt(i));
        }
        this.bitmapBytes = (kinds.length + 7) >>> 3;
        boolean floating = false;
        for (int kind : kinds) {
            floating |= kind == FLOAT || kind == DOUBLE;
        }
        this.canonical = !floating;
    }

    /**
     * Whether two keys are equal exactly when their serialized bytes are: every field has one encoding
     * per value. Not so with FLOAT or DOUBLE fields, whose raw bits tell NaNs apart that compare equal.
     */
    boolean bytesDecideEquality() {
        return canonical;
    }

    private static int kindOf(DataType type) {
        if (!InternalRowUtils.isOrderable(type)) {
            throw new IllegalArgumentException("Cannot order keys by a column of type " + type);
        }
        switch (type.root()) {
            case BOOLEAN:
            case TINYINT:
                return BYTE;
            case SMALLINT:
                return SHORT;
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
            case CHAR:
            case VARCHAR:
            case BINARY:
            case VARBINARY:
                return BYTES;
            case DECIMAL:
                return ((DecimalType) type).isCompact() ? LONG : BIG_DECIMAL;
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return ((TimestampType) type).isCompact() ? LONG : TIMESTAMP_NANOS;
            default:
                throw new IllegalArgumentException("Cannot order keys by a column of type " + type);
        }
    }

    /** Compares the keys starting at {@code offsetA} in {@code a} and {@code offsetB} in {@code b}. */
    int compare(byte[] a, int offsetA, byte[] b, int offsetB) {
        posA = offsetA + bitmapBytes;
        posB = offsetB + bitmapBytes;
        for (int i = 0; i < kinds.length; i++) {
            int mask = 1 << (i & 7);
            boolean nullA = (a[offsetA + (i >>> 3)] & mask) != 0;
            boolean nullB = (b[offsetB + (i >>> 3)] & mask) != 0;
            if (nullA || nullB) {
                if (nullA != nullB) {
                    return nullA ? -1 : 1;
                }
                continue;
            }
            int c = compareField(kinds[i], a, b);
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }

    /** Orders two records (see {@link RecordLayout}) by key, then by ascending sequence number. */
    int compareRecords(byte[] a, int offsetA, byte[] b, int offsetB) {
        int c = compare(a, offsetA + RecordLayout.KEY_OFFSET, b, offsetB + RecordLayout.KEY_OFFSET);
        return c != 0 ? c : Long.compare(RecordLayout.sequenceNumber(a, offsetA), RecordLayout.sequenceNumber(b, offsetB));
    }

    private int compareField(int kind, byte[] a, byte[] b) {
        int c;
        switch (kind) {
            case BYTE:
                c = Byte.compare(a[posA], b[posB]);
                posA += 1;
                posB += 1;
                return c;
            case SHORT:
                c = Short.compare((short) ByteWriter.SHORTS.get(a, posA), (short) ByteWriter.SHORTS.get(b, posB));
                posA += 2;
                posB += 2;
                return c;
            case INT:
                c = Integer.compare((int) ByteWriter.INTS.get(a, posA), (int) ByteWriter.INTS.get(b, posB));
                posA += 4;
                posB += 4;
                return c;
            case LONG:
                c = Long.compare((long) ByteWriter.LONGS.get(a, posA), (long) ByteWriter.LONGS.get(b, posB));
                posA += 8;
                posB += 8;
                return c;
            case FLOAT:
                c = Float.compare(Float.intBitsToFloat((int) ByteWriter.INTS.get(a, posA)),
                        Float.intBitsToFloat((int) ByteWriter.INTS.get(b, posB)));
                posA += 4;
                posB += 4;
                return c;
            case DOUBLE:
                c = Double.compare(Double.longBitsToDouble((long) ByteWriter.LONGS.get(a, posA)),
                        Double.longBitsToDouble((long) ByteWriter.LONGS.get(b, posB)));
                posA += 8;
                posB += 8;
                return c;
            case BYTES:
                return compareBytes(a, b);
            case BIG_DECIMAL:
                return compareBigDecimal(a, b);
            case TIMESTAMP_NANOS:
                c = Long.compare((long) ByteWriter.LONGS.get(a, posA), (long) ByteWriter.LONGS.get(b, posB));
                posA += 8;
                posB += 8;
                int nanosA = varInt(a, posA);
                int nanosB = varInt(b, posB);
                posA += varIntSize(nanosA);
                posB += varIntSize(nanosB);
                return c != 0 ? c : Integer.compare(nanosA, nanosB);
            default:
                throw new IllegalStateException("Unknown key field kind " + kind);
        }
    }

    private int compareBytes(byte[] a, byte[] b) {
        int lenA = varInt(a, posA);
        int lenB = varInt(b, posB);
        int startA = posA + varIntSize(lenA);
        int startB = posB + varIntSize(lenB);
        posA = startA + lenA;
        posB = startB + lenB;
        return Arrays.compareUnsigned(a, startA, posA, b, startB, posB);
    }

    private int compareBigDecimal(byte[] a, byte[] b) {
        // Same column, same scale: comparing the unscaled values orders the decimals.
        int lenA = varInt(a, posA);
        int lenB = varInt(b, posB);
        int startA = posA + varIntSize(lenA);
        int startB = posB + varIntSize(lenB);
        posA = startA + lenA;
        posB = startB + lenB;
        return new BigInteger(a, startA, lenA).compareTo(new BigInteger(b, startB, lenB));
    }

    static int varInt(byte[] buf, int pos) {
        int result = 0;
        for (int shift = 0; ; shift += 7) {
            byte v = buf[pos++];
            result |= (v & 0x7F) << shift;
            if (v >= 0) {
                return result;
            }
        }
    }

    static int varIntSize(int value) {
        if ((value & ~0x7F) == 0) {
            return 1;
        } else if ((value & ~0x3FFF) == 0) {
            return 2;
        } else if ((value & ~0x1FFFFF) == 0) {
            return 3;
        } else if ((value & ~0xFFFFFFF) == 0) {
            return 4;
        }
        return 5;
    }
}
