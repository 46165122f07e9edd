package dev.streamhouse.storage.data.columnar;

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.Decimal;
import dev.streamhouse.storage.data.InternalArray;
import dev.streamhouse.storage.data.InternalMap;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.InternalRowUtils;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.data.Timestamp;

/**
 * One row of a {@link ColumnarBatch} as an {@link InternalRow}: every getter reads the vector of the
 * field at the row's position, nothing is copied. A view may be reused: {@link #point} moves it to
 * another row (or batch), {@link #detach} gives a view of its own. Its kind is the batch's {@code _VALUE_KIND} of the row (+I without one),
 * unless {@link #setRowKind} set one for the current position; moving the view clears that.
 * Valid as long as the batch is. Not thread-safe.
 */
public final class ColumnarRow implements InternalRow {
    private ColumnarBatch batch;
    private ColumnVector[] vectors;
    private int rowId;
    private RowKind kind;

    public ColumnarRow() {}

    public ColumnarRow(ColumnarBatch batch, int rowId) {
        point(batch, rowId);
    }

    /** Points the view at row {@code rowId} of {@code batch}. */
    public ColumnarRow point(ColumnarBatch batch, int rowId) {
        this.batch = batch;
        this.vectors = batch.vectors();
        this.rowId = rowId;
        this.kind = null;
        return this;
    }

    /** Moves the view to another row of the same batch. */
    public ColumnarRow point(int rowId) {
        this.rowId = rowId;
        this.kind = null;
        return this;
    }

    /** A view of the same row (and kind) of its own, unaffected when this one moves. */
    public ColumnarRow detach() {
        ColumnarRow copy = new ColumnarRow(batch, rowId);
        copy.kind = kind;
        return copy;
    }

    public ColumnarBatch batch() {
        return batch;
    }

    public int rowId() {
        return rowId;
    }

    @Override
    public int arity() {
        return vectors.length;
    }

    @Override
    public RowKind rowKind() {
        if (kind != null) {
            return kind;
        }
        ColumnVector kinds = batch.kinds();
        return kinds == null ? RowKind.INSERT : RowKind.fromByteValue(kinds.getByte(rowId));
    }

    @Override
    public void setRowKind(RowKind kind) {
        this.kind = kind;
    }

    @Override
    public boolean isNullAt(int pos) {
        return vectors[pos].isNullAt(rowId);
    }

    @Override
    public boolean booleanAt(int pos) {
        return vectors[pos].getBoolean(rowId);
    }

    @Override
    public byte byteAt(int pos) {
        return vectors[pos].getByte(rowId);
    }

    @Override
    public short shortAt(int pos) {
        return vectors[pos].getShort(rowId);
    }

    @Override
    public int intAt(int pos) {
        return vectors[pos].getInt(rowId);
    }

    @Override
    public long longAt(int pos) {
        return vectors[pos].getLong(rowId);
    }

    @Override
    public float floatAt(int pos) {
        return vectors[pos].getFloat(rowId);
    }

    @Override
    public double doubleAt(int pos) {
        return vectors[pos].getDouble(rowId);
    }

    @Override
    public BinaryString stringAt(int pos) {
        return vectors[pos].getString(rowId);
    }

    @Override
    public Decimal decimalAt(int pos, int precision, int scale) {
        return vectors[pos].getDecimal(rowId, precision, scale);
    }

    @Override
    public Timestamp timestampAt(int pos, int precision) {
        return vectors[pos].getTimestamp(rowId, precision);
    }

    @Override
    public byte[] binaryAt(int pos) {
        return vectors[pos].getBinary(rowId);
    }

    @Override
    public InternalArray arrayAt(int pos) {
        return vectors[pos].getArray(rowId);
    }

    @Override
    public InternalMap mapAt(int pos) {
        return vectors[pos].getMap(rowId);
    }

    @Override
    public InternalRow rowAt(int pos, int numFields) {
        return vectors[pos].getRow(rowId);
    }

    /** Shown as a {@link dev.streamhouse.storage.data.GenericRow} of the same values would be. */
    @Override
    public String toString() {
        return InternalRowUtils.copyToGeneric(this, batch.type()).toString();
    }
}
