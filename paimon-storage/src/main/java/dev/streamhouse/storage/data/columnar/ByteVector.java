package dev.streamhouse.storage.data.columnar;

/** TINYINT values in a {@code byte[]}, written directly by readers through {@link #values()}. */
public final class ByteVector extends HeapVector {
    private final byte[] values;

    public ByteVector(int capacity) {
        super(capacity);
        this.values = new byte[capacity];
    }

    /** The values, written directly by readers. */
    public byte[] values() {
        return values;
    }

    public void set(int rowId, byte value) {
        values[rowId] = value;
    }

    @Override
    public byte getByte(int rowId) {
        return values[rowId];
    }
}
