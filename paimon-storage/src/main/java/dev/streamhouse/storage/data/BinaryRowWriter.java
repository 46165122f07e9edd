package dev.streamhouse.storage.data;

import dev.streamhouse.storage.types.DecimalType;
import dev.streamhouse.storage.types.TimestampType;

import java.util.Arrays;

/**
 * Builds {@link BinaryRow}s field by field. Fields may be written in any order, but variable-length
 * values are appended in the order they are written, so write fields in position order to produce
 * the canonical bytes. Reusable: call {@link #reset()} before each row.
 */
public final class BinaryRowWriter {
    /** Bit set in a slot whose string/binary value (≤ 7 bytes) is stored inline. */
    static final long INLINE_MARK = 0x80L << 56;
    static final int MAX_INLINE_BYTES = 7;

    private final int arity;
    private final int nullBitsSizeInBytes;
    private final int fixedSize;
    private byte[] buffer;
    private int cursor;

    public BinaryRowWriter(int arity) {
        this.arity = arity;
        this.nullBitsSizeInBytes = BinaryRow.bitSetWidthInBytes(arity);
        this.fixedSize = nullBitsSizeInBytes + 8 * arity;
        this.buffer = new byte[Math.max(64, fixedSize + 32)];
        reset();
    }

    public int arity() {
        return arity;
    }

    /** Clears the row: all fields non-null zero, row kind INSERT, no variable part. */
    public void reset() {
        Arrays.fill(buffer, 0, Math.max(cursor, fixedSize), (byte) 0);
        cursor = fixedSize;
    }

    public void setRowKind(RowKind kind) {
        buffer[0] = kind.toByteValue();
    }

    private int fieldOffset(int pos) {
        return nullBitsSizeInBytes + 8 * pos;
    }

    public void setNullAt(int pos) {
        int bit = pos + 8;
        buffer[bit >>> 3] |= (byte) (1 << (bit & 7));
        writeLongLE(fieldOffset(pos), 0L);
    }

    public void writeBoolean(int pos, boolean v) {
        buffer[fieldOffset(pos)] = (byte) (v ? 1 : 0);
    }

    public void writeByte(int pos, byte v) {
        buffer[fieldOffset(pos)] = v;
    }

    public void writeShort(int pos, short v) {
        int o = fieldOffset(pos);
        buffer[o] = (byte) v;
        buffer[o + 1] = (byte) (v >>> 8);
    }

    public void writeInt(int pos, int v) {
        writeIntLE(fieldOffset(pos), v);
    }

    public void writeLong(int pos, long v) {
        writeLongLE(fieldOffset(pos), v);
    }

    public void writeFloat(int pos, float v) {
        writeIntLE(fieldOffset(pos), Float.floatToIntBits(v));
    }

    public void writeDouble(int pos, double v) {
        writeLongLE(fieldOffset(pos), Double.doubleToLongBits(v));
    }

    public void writeString(int pos, BinaryString s) {
        writeBytes(pos, s.rawBytes(), s.rawOffset(), s.byteLength());
    }

    public void writeBinary(int pos, byte[] b) {
        writeBytes(pos, b, 0, b.length);
    }

    private void writeBytes(int pos, byte[] src, int srcOffset, int len) {
        int fieldOffset = fieldOffset(pos);
        if (len <= MAX_INLINE_BYTES) {
            System.arraycopy(src, srcOffset, buffer, fieldOffset, len);
            buffer[fieldOffset + 7] = (byte) (0x80 | len);
        } else {
            int offset = appendVariable(src, srcOffset, len, roundUp8(len));
            writeLongLE(fieldOffset, ((long) offset << 32) | len);
        }
    }

    /**
     * Writes a decimal; {@code value} may be null. Non-compact decimals reserve a 16-byte region even
     * for null, as the format requires.
     */
    public void writeDecimal(int pos, Decimal value, int precision) {
        if (precision <= DecimalType.MAX_COMPACT_PRECISION) {
            if (value == null) {
                setNullAt(pos);
            } else {
                writeLong(pos, value.toUnscaledLong());
            }
            return;
        }
        int offset = reserve(16);
        if (value == null) {
            setNullAt(pos);
            writeLongLE(fieldOffset(pos), (long) offset << 32);
            return;
        }
        byte[] unscaled = value.toUnscaledBytes();
        if (unscaled.length > 16) {
            throw new IllegalArgumentException("Decimal " + value + " needs more than 16 bytes");
        }
        System.arraycopy(unscaled, 0, buffer, offset, unscaled.length);
        writeLongLE(fieldOffset(pos), ((long) offset << 32) | unscaled.length);
    }

    /**
     * Writes a timestamp; {@code value} may be null. Non-compact timestamps reserve 8 bytes even for
     * null.
     */
    public void writeTimestamp(int pos, Timestamp value, int precision) {
        if (precision <= TimestampType.MAX_COMPACT_PRECISION) {
            if (value == null) {
                setNullAt(pos);
            } else {
                writeLong(pos, value.millisecond());
            }
            return;
        }
        int offset = reserve(8);
        if (value == null) {
            setNullAt(pos);
            writeLongLE(fieldOffset(pos), (long) offset << 32);
            return;
        }
        writeLongLE(offset, value.millisecond());
        writeLongLE(fieldOffset(pos), ((long) offset << 32) | value.nanoOfMillisecond());
    }

    /** Returns a new row holding a copy of the written bytes; the writer can be reset and reused. */
    public BinaryRow complete() {
        return new BinaryRow(arity, Arrays.copyOf(buffer, cursor));
    }

    private int reserve(int len) {
        ensureCapacity(len);
        int offset = cursor;
        Arrays.fill(buffer, offset, offset + len, (byte) 0);
        cursor += len;
        return offset;
    }

    private int appendVariable(byte[] src, int srcOffset, int len, int paddedLen) {
        int offset = reserve(paddedLen);
        System.arraycopy(src, srcOffset, buffer, offset, len);
        return offset;
    }

    private void ensureCapacity(int extra) {
        if (cursor + extra > buffer.length) {
            buffer = Arrays.copyOf(buffer, Math.max(buffer.length * 2, cursor + extra));
        }
    }

    private static int roundUp8(int n) {
        return (n + 7) & ~7;
    }

    private void writeIntLE(int o, int v) {
        buffer[o] = (byte) v;
        buffer[o + 1] = (byte) (v >>> 8);
        buffer[o + 2] = (byte) (v >>> 16);
        buffer[o + 3] = (byte) (v >>> 24);
    }

    private void writeLongLE(int o, long v) {
        writeIntLE(o, (int) v);
        writeIntLE(o + 4, (int) (v >>> 32));
    }
}
