package dev.streamhouse.storage.mergetree.buffer;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * A growable little-endian byte sink used to serialize rows before they are copied into pages or
 * spill files. Not thread-safe; reuse one instance with {@link #reset()}.
 */
public final class ByteWriter {
    static final VarHandle SHORTS = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
    static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private final int initialCapacity;
    private byte[] buffer;
    private int position;

    public ByteWriter(int initialCapacity) {
        this.initialCapacity = Math.max(16, initialCapacity);
        this.buffer = new byte[this.initialCapacity];
    }

    /** Forgets the written bytes; drops an oversized buffer (left by a huge record) back to the initial one. */
    public void reset() {
        position = 0;
        if (buffer.length > 4 * initialCapacity) {
            buffer = new byte[initialCapacity];
        }
    }

    /** The backing array; bytes {@code [0, position())} are valid until the next write or reset. */
    public byte[] buffer() {
        return buffer;
    }

    public int position() {
        return position;
    }

    private void ensure(int extra) {
        int needed = position + extra;
        if (needed < 0) {
            throw new IllegalArgumentException("Cannot serialize row: it is larger than 2 GiB");
        }
        if (needed > buffer.length) {
            long grown = Math.max((long) buffer.length * 2, needed);
            buffer = Arrays.copyOf(buffer, (int) Math.min(grown, Integer.MAX_VALUE - 8));
        }
    }

    /** Reserves {@code n} zero bytes (e.g. a null bitmap) and returns their offset. */
    public int reserve(int n) {
        ensure(n);
        int at = position;
        Arrays.fill(buffer, at, at + n, (byte) 0);
        position += n;
        return at;
    }

    /** Sets bit {@code bit} of the bitmap starting at {@code bitmapOffset}. */
    public void setBit(int bitmapOffset, int bit) {
        buffer[bitmapOffset + (bit >>> 3)] |= (byte) (1 << (bit & 7));
    }

    public void writeByte(int v) {
        ensure(1);
        buffer[position++] = (byte) v;
    }

    public void writeShort(short v) {
        ensure(2);
        SHORTS.set(buffer, position, v);
        position += 2;
    }

    public void writeInt(int v) {
        ensure(4);
        INTS.set(buffer, position, v);
        position += 4;
    }

    /** Overwrites an int written earlier (e.g. a length placeholder). */
    public void setIntAt(int offset, int v) {
        INTS.set(buffer, offset, v);
    }

    public void writeLong(long v) {
        ensure(8);
        LONGS.set(buffer, position, v);
        position += 8;
    }

    /** A non-negative int in 1 to 5 bytes, 7 bits per byte, low bits first. */
    public void writeVarInt(int v) {
        if (v < 0) {
            throw new IllegalArgumentException("Cannot write a negative var-int: " + v);
        }
        ensure(5);
        while ((v & ~0x7F) != 0) {
            buffer[position++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        buffer[position++] = (byte) v;
    }

    public void writeBytes(byte[] src, int offset, int length) {
        ensure(length);
        System.arraycopy(src, offset, buffer, position, length);
        position += length;
    }

    /** A var-int length followed by the bytes. */
    public void writeLengthPrefixed(byte[] src, int offset, int length) {
        writeVarInt(length);
        writeBytes(src, offset, length);
    }
}
