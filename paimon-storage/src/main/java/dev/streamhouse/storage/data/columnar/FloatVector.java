package dev.streamhouse.storage.data.columnar;

/** FLOAT values in a {@code float[]}, written directly by readers through {@link #values()}. */
public final class FloatVector extends HeapVector {
    private float[] values;

    public FloatVector(int capacity) {
        super(capacity);
        this.values = new float[capacity];
    }

    @Override
    protected void grow(int capacity) {
        values = new float[capacity];
    }

    /** The storage of the current batch (valid until the next {@link #reset} that grows it). */
    public float[] values() {
        return values;
    }

    public void set(int rowId, float value) {
        values[rowId] = value;
    }

    @Override
    public float getFloat(int rowId) {
        return values[rowId];
    }
}
