package dev.streamhouse.flink.common.data;

import dev.streamhouse.flink.common.FlinkRowKinds;
import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.Decimal;
import dev.streamhouse.storage.data.InternalArray;
import dev.streamhouse.storage.data.InternalMap;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.data.Timestamp;
import org.apache.flink.table.data.RowData;

/**
 * A storage {@link InternalRow} view over a Flink {@link RowData}, without copying the row: each
 * getter reads the Flink value and converts only that value (strings keep pointing at Flink's UTF-8
 * bytes when they lie in one heap segment; see {@link FlinkValues}).
 *
 * <p>Both row models use the same internal representations (DATE int days, TIME int millis of day,
 * TIMESTAMP and TIMESTAMP_LTZ as epoch millis plus nanos of millisecond, MULTISET as a map from element
 * to INT count), and their getters are typed by method, so the view needs no row type.
 *
 * <p>Lifetime: a view is reused: {@link #replace} points it at the next row. Values it returns may
 * share memory with the Flink row; consume them before the row is released or replaced. Not
 * thread-safe.
 */
public final class RowDataView implements InternalRow {
    private RowData row;
    private RowKind kind;

    public RowDataView() {}

    public RowDataView(RowData row) {
        replace(row);
    }

    /** Points this view at {@code row} and takes over its row kind. */
    public RowDataView replace(RowData row) {
        this.row = row;
        this.kind = FlinkRowKinds.toStorage(row.getRowKind());
        return this;
    }

    /** The Flink row this view currently shows. */
    public RowData row() {
        return row;
    }

    @Override
    public int arity() {
        return row.getArity();
    }

    @Override
    public RowKind rowKind() {
        return kind;
    }

    /** Changes the kind this view reports; the Flink row is not modified. */
    @Override
    public void setRowKind(RowKind kind) {
        this.kind = kind;
    }

    @Override
    public boolean isNullAt(int pos) {
        return row.isNullAt(pos);
    }

    @Override
    public boolean booleanAt(int pos) {
        return row.getBoolean(pos);
    }

    @Override
    public byte byteAt(int pos) {
        return row.getByte(pos);
    }

    @Override
    public short shortAt(int pos) {
        return row.getShort(pos);
    }

    @Override
    public int intAt(int pos) {
        return row.getInt(pos);
    }

    @Override
    public long longAt(int pos) {
        return row.getLong(pos);
    }

    @Override
    public float floatAt(int pos) {
        return row.getFloat(pos);
    }

    @Override
    public double doubleAt(int pos) {
        return row.getDouble(pos);
    }

    @Override
    public BinaryString stringAt(int pos) {
        return FlinkValues.toStorage(row.getString(pos));
    }

    @Override
    public Decimal decimalAt(int pos, int precision, int scale) {
        return FlinkValues.toStorage(row.getDecimal(pos, precision, scale), precision, scale);
    }

    @Override
    public Timestamp timestampAt(int pos, int precision) {
        return FlinkValues.toStorage(row.getTimestamp(pos, precision));
    }

    @Override
    public byte[] binaryAt(int pos) {
        return row.getBinary(pos);
    }

    @Override
    public InternalArray arrayAt(int pos) {
        return new ArrayDataView(row.getArray(pos));
    }

    @Override
    public InternalMap mapAt(int pos) {
        return new MapDataView(row.getMap(pos));
    }

    @Override
    public InternalRow rowAt(int pos, int numFields) {
        return new RowDataView(row.getRow(pos, numFields));
    }

    @Override
    public String toString() {
        return "RowDataView{" + row + "}";
    }
}
