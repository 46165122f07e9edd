package dev.streamhouse.storage.data;

import java.util.Arrays;

/** An array backed by a Java array of internal values (null elements allowed). */
public final class GenericArray implements InternalArray {
    private final Object[] values;

    public GenericArray(Object[] values) {
        this.values = values;
    }

    public Object element(int pos) {
        return values[pos];
    }

    public Object[] toObjectArray() {
        return values;
    }

    @Override
    public int size() {
        return values.length;
    }

    @Override
    public boolean isNullAt(int pos) {
        return values[pos] == null;
    }

    @Override
    public boolean booleanAt(int pos) {
        return (Boolean) values[pos];
    }

    @Override
    public byte byteAt(int pos) {
        return (Byte) values[pos];
    }

    @Override
    public short shortAt(int pos) {
        return (Short) values[pos];
    }

    @Override
    public int intAt(int pos) {
        return (Integer) values[pos];
    }

    @Override
    public long longAt(int pos) {
        return (Long) values[pos];
    }

    @Override
    public float floatAt(int pos) {
        return (Float) values[pos];
    }

    @Override
    public double doubleAt(int pos) {
        return (Double) values[pos];
    }

    @Override
    public BinaryString stringAt(int pos) {
        return (BinaryString) values[pos];
    }

    @Override
    public Decimal decimalAt(int pos, int precision, int scale) {
        return (Decimal) values[pos];
    }

    @Override
    public Timestamp timestampAt(int pos, int precision) {
        return (Timestamp) values[pos];
    }

    @Override
    public byte[] binaryAt(int pos) {
        return (byte[]) values[pos];
    }

    @Override
    public InternalArray arrayAt(int pos) {
        return (InternalArray) values[pos];
    }

    @Override
    public InternalMap mapAt(int pos) {
        return (InternalMap) values[pos];
    }

    @Override
    public InternalRow rowAt(int pos, int numFields) {
        return (InternalRow) values[pos];
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof GenericArray && Arrays.deepEquals(values, ((GenericArray) o).values);
    }

    @Override
    public int hashCode() {
        return Arrays.deepHashCode(values);
    }

    @Override
    public String toString() {
        return Arrays.deepToString(values);
    }
}
