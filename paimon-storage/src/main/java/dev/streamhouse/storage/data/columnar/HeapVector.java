package dev.streamhouse.storage.data.columnar;

import java.util.Arrays;

/**
 * A vector on the Java heap with a null mask, for a fixed number of rows: a reader creates it for one
 * batch, sets its values and nulls, and never changes it afterwards.
 */
public abstract class HeapVector extends ColumnVector {
    private final int capacity;
    /** The null mask, made when the first row is set null: most columns have no NULL in a batch. */
    private boolean[] nulls;
    private boolean anyNull;

    protected HeapVector(int capacity) {
        this.capacity = capacity;
    }

    public final void setNull(int rowId) {
        mask()[rowId] = true;
        anyNull = true;
    }

    /** Marks {@code count} rows from {@code rowId} null. */
    public final void setNulls(int rowId, int count) {
        if (count > 0) {
            Arrays.fill(mask(), rowId, rowId + count, true);
            anyNull = true;
        }
    }

    private boolean[] mask() {
        if (nulls == null) {
            nulls = new boolean[capacity];
        }
        return nulls;
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
