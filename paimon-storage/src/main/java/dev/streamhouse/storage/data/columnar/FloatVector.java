package dev.streamhouse.storage.data.columnar;

/** FLOAT values in a {@code float[]}, written directly by readers through {@link #values()}. */
public final class FloatVector extends HeapVector {
    private final float[] values;

    public FloatVector(int capacity) {
        super(capacity);
        this.values = new float[capacity];
    }

    /** The values, written directly by readers. */
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
