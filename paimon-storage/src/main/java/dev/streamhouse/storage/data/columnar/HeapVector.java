package dev.streamhouse.storage.data.columnar;

import java.util.Arrays;

/**
 * A vector on the Java heap with a null mask, refilled batch after batch by a reader: {@link #reset}
 * makes room for a number of rows and clears the nulls, then the reader sets values and nulls.
 */
public abstract class HeapVector extends ColumnVector {
    private boolean[] nulls;
    private boolean anyNull;

    protected HeapVector(int capacity) {
        this.nulls = new boolean[capacity];
    }

    /** Prepares the vector for {@code rows} rows, all non-null; previous values may remain. */
    public final void reset(int rows) {
        if (rows > nulls.length) {
            nulls = new boolean[rows];
            grow(rows);
        } else if (anyNull) {
            Arrays.fill(nulls, false);
        }
        anyNull = false;
    }

    /** Grows the value storage to hold at least {@code capacity} rows (previous values need not be kept). */
    protected abstract void grow(int capacity);

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
