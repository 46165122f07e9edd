package dev.streamhouse.storage.data.columnar;

/** TINYINT values in a {@code byte[]}, written directly by readers through {@link #values()}. */
public final class ByteVector extends HeapVector {
    private byte[] values;

    public ByteVector(int capacity) {
        super(capacity);
        this.values = new byte[capacity];
    }

    @Override
    protected void grow(int capacity) {
        values = new byte[capacity];
    }

    /** The storage of the current batch (valid until the next {@link #reset} that grows it). */
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
