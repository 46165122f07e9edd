package dev.streamhouse.storage.mergetree.buffer;

import java.util.Arrays;

/**
 * A cursor over little-endian bytes written by {@link ByteWriter}. Reads past the end fail with an
 * {@link ArrayIndexOutOfBoundsException}; callers only read what they wrote. Not thread-safe.
 */
public final class ByteReader {
    private byte[] buffer;
    private int position;

    public ByteReader() {}

    public ByteReader(byte[] buffer, int position) {
        reset(buffer, position);
    }

    /** Points this reader at {@code buffer} starting at {@code position}. */
    public ByteReader reset(byte[] buffer, int position) {
        this.buffer = buffer;
        this.position = position;
        return this;
    }

    public byte[] buffer() {
        return buffer;
    }

    public int position() {
        return position;
    }

    public void skip(int n) {
        position += n;
    }

    public byte readByte() {
        return buffer[position++];
    }

    public short readShort() {
        short v = (short) ByteWriter.SHORTS.get(buffer, position);
        position += 2;
        return v;
    }

    public int readInt() {
        int v = (int) ByteWriter.INTS.get(buffer, position);
        position += 4;
        return v;
    }

    public long readLong() {
        long v = (long) ByteWriter.LONGS.get(buffer, position);
        position += 8;
        return v;
    }

    public int readVarInt() {
        int result = 0;
        for (int shift = 0; shift < 35; shift += 7) {
            byte b = buffer[position++];
            result |= (b & 0x7F) << shift;
            if (b >= 0) {
                return result;
            }
        }
        throw new IllegalStateException("Cannot read var-int at offset " + (position - 5) + ": longer than 5 bytes");
    }

    /** A copy of the next {@code length} bytes. */
    public byte[] readBytes(int length) {
        byte[] out = Arrays.copyOfRange(buffer, position, position + length);
        position += length;
        return out;
    }

    /** A copy of a var-int length-prefixed byte string. */
    public byte[] readLengthPrefixed() {
        return readBytes(readVarInt());
    }
}
