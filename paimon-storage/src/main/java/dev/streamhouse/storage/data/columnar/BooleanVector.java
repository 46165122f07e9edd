package dev.streamhouse.storage.data.columnar;

/** BOOLEAN values in a {@code boolean[]}, written directly by readers through {@link #values()}. */
public final class BooleanVector extends HeapVector {
    private final boolean[] values;

    public BooleanVector(int capacity) {
        super(capacity);
        this.values = new boolean[capacity];
    }

    /** The values, written directly by readers. */
    public boolean[] values() {
        return values;
    }

    public void set(int rowId, boolean value) {
        values[rowId] = value;
    }

    @Override
    public boolean getBoolean(int rowId) {
        return values[rowId];
    }
}
