package dev.streamhouse.flink.common.data;

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.Decimal;
import dev.streamhouse.storage.data.InternalArray;
import dev.streamhouse.storage.data.InternalMap;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.Timestamp;
import org.apache.flink.table.data.ArrayData;

/**
 * A storage {@link InternalArray} view over a Flink {@link ArrayData} (ARRAY elements, and the key and
 * value arrays of MAP and MULTISET). Same conversions and lifetime rules as {@link RowDataView}.
 */
public final class ArrayDataView implements InternalArray {
    private final ArrayData array;

    public ArrayDataView(ArrayData array) {
        this.array = array;
    }

    @Override
    public int size() {
        return array.size();
    }

    @Override
    public boolean isNullAt(int pos) {
        return array.isNullAt(pos);
    }

    @Override
    public boolean booleanAt(int pos) {
        return array.getBoolean(pos);
    }

    @Override
    public byte byteAt(int pos) {
        return array.getByte(pos);
    }

    @Override
    public short shortAt(int pos) {
        return array.getShort(pos);
    }

    @Override
    public int intAt(int pos) {
        return array.getInt(pos);
    }

    @Override
    public long longAt(int pos) {
        return array.getLong(pos);
    }

    @Override
    public float floatAt(int pos) {
        return array.getFloat(pos);
    }

    @Override
    public double doubleAt(int pos) {
        return array.getDouble(pos);
    }

    @Override
    public BinaryString stringAt(int pos) {
        return FlinkValues.toStorage(array.getString(pos));
    }

    @Override
    public Decimal decimalAt(int pos, int precision, int scale) {
        return FlinkValues.toStorage(array.getDecimal(pos, precision, scale), precision, scale);
    }

    @Override
    public Timestamp timestampAt(int pos, int precision) {
        return FlinkValues.toStorage(array.getTimestamp(pos, precision));
    }

    @Override
    public byte[] binaryAt(int pos) {
        return array.getBinary(pos);
    }

    @Override
    public InternalArray arrayAt(int pos) {
        return new ArrayDataView(array.getArray(pos));
    }

    @Override
    public InternalMap mapAt(int pos) {
        return new MapDataView(array.getMap(pos));
    }

    @Override
    public InternalRow rowAt(int pos, int numFields) {
        return new RowDataView(array.getRow(pos, numFields));
    }
}
