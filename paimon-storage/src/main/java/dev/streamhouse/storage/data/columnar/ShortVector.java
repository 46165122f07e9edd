package dev.streamhouse.storage.data.columnar;

/** SMALLINT values in a {@code short[]}, written directly by readers through {@link #values()}. */
public final class ShortVector extends HeapVector {
    private final short[] values;

    public ShortVector(int capacity) {
        super(capacity);
        this.values = new short[capacity];
    }

    /** The values, written directly by readers. */
    public short[] values() {
        return values;
    }

    public void set(int rowId, short value) {
        values[rowId] = value;
    }

    @Override
    public short getShort(int rowId) {
        return values[rowId];
    }
}
