package dev.streamhouse.storage.data.columnar;

/** INT, DATE and TIME values in a {@code int[]}, written directly by readers through {@link #values()}. */
public final class IntVector extends HeapVector {
    private int[] values;

    public IntVector(int capacity) {
        super(capacity);
        this.values = new int[capacity];
    }

    @Override
    protected void grow(int capacity) {
        values = new int[capacity];
    }

    /** The storage of the current batch (valid until the next {@link #reset} that grows it). */
    public int[] values() {
        return values;
    }

    public void set(int rowId, int value) {
        values[rowId] = value;
    }

    @Override
    public int getInt(int rowId) {
        return values[rowId];
    }
}
