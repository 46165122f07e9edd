package dev.streamhouse.storage.data.columnar;

import dev.streamhouse.storage.data.InternalArray;
import dev.streamhouse.storage.data.InternalMap;
import dev.streamhouse.storage.data.InternalRow;

/**
 * Values held as objects of their internal representation: nested values (ARRAY, MULTISET, MAP,
 * ROW) and VARIANT bytes, which readers assemble row by row. A null object is a null value.
 */
public final class ObjectVector extends HeapVector {
    private final Object[] values;

    public ObjectVector(int capacity) {
        super(capacity);
        this.values = new Object[capacity];
    }


    /** Sets the value of {@code rowId}; null marks it null. */
    public void set(int rowId, Object value) {
        values[rowId] = value;
        if (value == null) {
            setNull(rowId);
        }
    }

    @Override
    public byte[] getBinary(int rowId) {
        return ((byte[]) values[rowId]).clone();
    }

    @Override
    public InternalArray getArray(int rowId) {
        return (InternalArray) values[rowId];
    }

    @Override
    public InternalMap getMap(int rowId) {
        return (InternalMap) values[rowId];
    }

    @Override
    public InternalRow getRow(int rowId) {
        return (InternalRow) values[rowId];
    }
}
