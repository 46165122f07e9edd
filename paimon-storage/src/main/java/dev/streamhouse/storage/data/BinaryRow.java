package dev.streamhouse.storage.data;

import dev.streamhouse.storage.types.DecimalType;
import dev.streamhouse.storage.types.TimestampType;
import dev.streamhouse.storage.utils.MurmurHash;

import java.io.Serializable;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The table format's compact binary row (docs/format.md §6.1): a header byte with the row kind, a null
 * bitset, one 8-byte little-endian slot per field and a variable-length part. Partition values,
 * primary keys and statistics are stored in this encoding, and rows are compared byte-wise, so the
 * bytes produced by {@link BinaryRowWriter} must equal Paimon's exactly.
 *
 * <p>Nested values (ARRAY, MAP, ROW) never occur in partitions, keys or statistics and are not
 * readable from this class.
 */
public final class BinaryRow implements InternalRow, Serializable {
    private static final long serialVersionUID = 1L;

    public static final BinaryRow EMPTY_ROW = new BinaryRowWriter(0).complete();

    private final byte[] bytes;
    private final int arity;
    private final int nullBitsSizeInBytes;

    /** Wraps row bytes (not the serialized form) of a row with {@code arity} fields. */
    public BinaryRow(int arity, byte[] bytes) {
        this.arity = arity;
        this.bytes = bytes;
        this.nullBitsSizeInBytes = bitSetWidthInBytes(arity);
        if (bytes.length < nullBitsSizeInBytes + 8 * arity) {
            throw new IllegalArgumentException(
                    "BinaryRow of arity " + arity + " needs at least "
                            + (nullBitsSizeInBytes + 8 * arity) + " bytes, got " + bytes.length);
        }
    }

    /** Width of header plus null bits: 8 bytes per 64 bits, with 8 header bits. */
    public static int bitSetWidthInBytes(int arity) {
        return ((arity + 63 + 8) / 64) * 8;
    }

    /** Parses the serialized form: a big-endian int32 arity followed by the row bytes. */
    public static BinaryRow fromSerializedBytes(byte[] serialized) {
        if (serialized.length < 4) {
            throw new IllegalArgumentException(
                    "Serialized BinaryRow must have at least 4 bytes, got " + serialized.length);
        }
        int arity = ByteBuffer.wrap(serialized).getInt();
        if (arity < 0) {
            throw new IllegalArgumentException("Serialized BinaryRow has negative arity " + arity);
        }
        return new BinaryRow(arity, Arrays.copyOfRange(serialized, 4, serialized.length));
    }

    /** The serialized form: big-endian int32 arity, then the row bytes. */
    public byte[] toSerializedBytes() {
        byte[] out = new byte[4 + bytes.length];
        ByteBuffer.wrap(out).putInt(arity);
        System.arraycopy(bytes, 0, out, 4, bytes.length);
        return out;
    }

    /** The row bytes; do not modify. */
    public byte[] bytes() {
        return bytes;
    }

    public int sizeInBytes() {
        return bytes.length;
    }

    private int fieldOffset(int pos) {
        return nullBitsSizeInBytes + 8 * pos;
    }

    private long slot(int pos) {
        return readLongLE(bytes, fieldOffset(pos));
    }

    @Override
    public int arity() {
        return arity;
    }

    @Override
    public RowKind rowKind() {
        return RowKind.fromByteValue(bytes[0]);
    }

    @Override
    public void setRowKind(RowKind kind) {
        bytes[0] = kind.toByteValue();
    }

    @Override
    public boolean isNullAt(int pos) {
        int bit = pos + 8;
        return (bytes[bit >>> 3] & (1 << (bit & 7))) != 0;
    }

    @Override
    public boolean booleanAt(int pos) {
        return bytes[fieldOffset(pos)] != 0;
    }

    @Override
    public byte byteAt(int pos) {
        return bytes[fieldOffset(pos)];
    }

    @Override
    public short shortAt(int pos) {
        int o = fieldOffset(pos);
        return (short) ((bytes[o] & 0xFF) | (bytes[o + 1] & 0xFF) << 8);
    }

    @Override
    public int intAt(int pos) {
        return readIntLE(bytes, fieldOffset(pos));
    }

    @Override
    public long longAt(int pos) {
        return slot(pos);
    }

    @Override
    public float floatAt(int pos) {
        return Float.intBitsToFloat(intAt(pos));
    }

    @Override
    public double doubleAt(int pos) {
        return Double.longBitsToDouble(slot(pos));
    }

    @Override
    public BinaryString stringAt(int pos) {
        int fieldOffset = fieldOffset(pos);
        long slot = readLongLE(bytes, fieldOffset);
        if ((slot & BinaryRowWriter.INLINE_MARK) != 0) {
            int len = (int) ((slot >>> 56) & 0x7F);
            return BinaryString.fromBytes(bytes, fieldOffset, len);
        }
        return BinaryString.fromBytes(bytes, (int) (slot >>> 32), (int) slot);
    }

    @Override
    public byte[] binaryAt(int pos) {
        BinaryString s = stringAt(pos);
        return Arrays.copyOfRange(s.rawBytes(), s.rawOffset(), s.rawOffset() + s.byteLength());
    }

    @Override
    public Decimal decimalAt(int pos, int precision, int scale) {
        if (precision <= DecimalType.MAX_COMPACT_PRECISION) {
            return Decimal.fromUnscaledLong(slot(pos), precision, scale);
        }
        long slot = slot(pos);
        int offset = (int) (slot >>> 32);
        int len = (int) slot;
        return Decimal.fromUnscaledBytes(Arrays.copyOfRange(bytes, offset, offset + len), precision, scale);
    }

    @Override
    public Timestamp timestampAt(int pos, int precision) {
        if (precision <= TimestampType.MAX_COMPACT_PRECISION) {
            return Timestamp.fromEpochMillis(slot(pos));
        }
        long slot = slot(pos);
        int offset = (int) (slot >>> 32);
        return Timestamp.fromEpochMillis(readLongLE(bytes, offset), (int) slot);
    }

    @Override
    public InternalArray arrayAt(int pos) {
        throw new UnsupportedOperationException("BinaryRow does not hold nested arrays");
    }

    @Override
    public InternalMap mapAt(int pos) {
        throw new UnsupportedOperationException("BinaryRow does not hold nested maps");
    }

    @Override
    public InternalRow rowAt(int pos, int numFields) {
        throw new UnsupportedOperationException("BinaryRow does not hold nested rows");
    }

    public BinaryRow copy() {
        return new BinaryRow(arity, bytes.clone());
    }

    static int readIntLE(byte[] b, int o) {
        return (b[o] & 0xFF) | (b[o + 1] & 0xFF) << 8 | (b[o + 2] & 0xFF) << 16 | (b[o + 3] & 0xFF) << 24;
    }

    static long readLongLE(byte[] b, int o) {
        return (readIntLE(b, o) & 0xFFFFFFFFL) | ((long) readIntLE(b, o + 4)) << 32;
    }

    /** The format's hash of this row (murmur over the row bytes), used for buckets and hash indexes. */
    public int formatHash() {
        return MurmurHash.hashBytesByWords(bytes, 0, bytes.length);
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof BinaryRow)) {
            return false;
        }
        BinaryRow that = (BinaryRow) o;
        return arity == that.arity && Arrays.equals(bytes, that.bytes);
    }

    @Override
    public int hashCode() {
        return formatHash();
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("BinaryRow[arity=").append(arity).append(", ");
        for (byte b : bytes) {
            sb.append(String.format("%02x", b));
        }
        return sb.append(']').toString();
    }
}
