package dev.streamhouse.storage.data.columnar;

/** INT, DATE and TIME values in a {@code int[]}, written directly by readers through {@link #values()}. */
public final class IntVector extends HeapVector {
    private final int[] values;

    public IntVector(int capacity) {
        super(capacity);
        this.values = new int[capacity];
    }

    /** The values, written directly by readers. */
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
