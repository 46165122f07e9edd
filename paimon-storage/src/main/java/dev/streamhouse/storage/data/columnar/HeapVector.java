package dev.streamhouse.storage.data.columnar;

import java.util.Arrays;

/**
 * A vector on the Java heap with a null mask, for a fixed number of rows: a reader creates it for one
 * batch, sets its values and nulls, and never changes it afterwards.
 */
public abstract class HeapVector extends ColumnVector {
    private final boolean[] nulls;
    private boolean anyNull;

    protected HeapVector(int capacity) {
        this.nulls = new boolean[capacity];
    }

    public final void setNull(int rowId) {
        nulls[rowId] = true;
        anyNull = true;
    }

    /** Marks {@code count} rows from {@code rowId} null. */
    public final void setNulls(int rowId, int count) {
        if (count > 0) {
            Arrays.fill(nulls, rowId, rowId + count, true);
            anyNull = true;
        }
    }

    @Override
    public final boolean isNullAt(int rowId) {
        return anyNull && nulls[rowId];
    }

    @Override
    public final boolean hasNulls(int rows) {
        if (!anyNull) {
            return false;
        }
        for (int i = 0; i < rows; i++) {
            if (nulls[i]) {
                return true;
            }
        }
        return false;
    }
}
