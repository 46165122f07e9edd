package dev.streamhouse.storage.data.columnar;

/** DOUBLE values in a {@code double[]}, written directly by readers through {@link #values()}. */
public final class DoubleVector extends HeapVector {
    private final double[] values;

    public DoubleVector(int capacity) {
        super(capacity);
        this.values = new double[capacity];
    }

    /** The values, written directly by readers. */
    public double[] values() {
        return values;
    }

    public void set(int rowId, double value) {
        values[rowId] = value;
    }

    @Override
    public double getDouble(int rowId) {
        return values[rowId];
    }
}
