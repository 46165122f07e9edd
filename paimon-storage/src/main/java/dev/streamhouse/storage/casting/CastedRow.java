package dev.streamhouse.storage.casting;

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.Decimal;
import dev.streamhouse.storage.data.FieldGetter;
import dev.streamhouse.storage.data.InternalArray;
import dev.streamhouse.storage.data.InternalMap;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.InternalRowUtils;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.data.Timestamp;

/**
 * A view of a row read from a data file in the types the file was written with, presenting the
 * columns whose type changed in their current types. Position {@code i} is converted with
 * {@code casts[i]} when that cast {@link ColumnCast#convertsValues() converts values}; every other
 * position is passed through. Copies nothing up front; reusable with {@link #replace(InternalRow)}.
 * Not thread-safe.
 */
public final class CastedRow implements InternalRow {
    private final ColumnCast[] casts;
    private final FieldGetter[] fileGetters;
    private InternalRow row;

    /**
     * @param casts one entry per position of the underlying row; null (or a cast that converts no
     *     values) means "pass through"
     */
    public CastedRow(ColumnCast[] casts) {
        this.casts = new ColumnCast[casts.length];
        this.fileGetters = new FieldGetter[casts.length];
        for (int i = 0; i < casts.length; i++) {
            if (casts[i] != null && casts[i].convertsValues()) {
                this.casts[i] = casts[i];
                this.fileGetters[i] = InternalRowUtils.fieldGetter(casts[i].fileReadType(), i);
            }
        }
    }

    /** Whether any position of {@code casts} converts values, i.e. whether a CastedRow is needed at all. */
    public static boolean needed(ColumnCast[] casts) {
        for (ColumnCast c : casts) {
            if (c != null && c.convertsValues()) {
                return true;
            }
        }
        return false;
    }

    public CastedRow replace(InternalRow row) {
        this.row = row;
        return this;
    }

    private Object converted(int pos) {
        return casts[pos].apply(fileGetters[pos].get(row));
    }

    @Override
    public int arity() {
        return row.arity();
    }

    @Override
    public RowKind rowKind() {
        return row.rowKind();
    }

    @Override
    public void setRowKind(RowKind kind) {
        row.setRowKind(kind);
    }

    @Override
    public boolean isNullAt(int pos) {
        return row.isNullAt(pos);
    }

    @Override
    public boolean booleanAt(int pos) {
        return row.booleanAt(pos);
    }

    @Override
    public byte byteAt(int pos) {
        return row.byteAt(pos);
    }

    @Override
    public short shortAt(int pos) {
        return casts[pos] == null ? row.shortAt(pos) : (Short) converted(pos);
    }

    @Override
    public int intAt(int pos) {
        return casts[pos] == null ? row.intAt(pos) : (Integer) converted(pos);
    }

    @Override
    public long longAt(int pos) {
        return casts[pos] == null ? row.longAt(pos) : (Long) converted(pos);
    }

    @Override
    public float floatAt(int pos) {
        return casts[pos] == null ? row.floatAt(pos) : (Float) converted(pos);
    }

    @Override
    public double doubleAt(int pos) {
        return casts[pos] == null ? row.doubleAt(pos) : (Double) converted(pos);
    }

    @Override
    public BinaryString stringAt(int pos) {
        return row.stringAt(pos);
    }

    @Override
    public Decimal decimalAt(int pos, int precision, int scale) {
        return casts[pos] == null ? row.decimalAt(pos, precision, scale) : (Decimal) converted(pos);
    }

    @Override
    public Timestamp timestampAt(int pos, int precision) {
        return casts[pos] == null ? row.timestampAt(pos, precision) : (Timestamp) converted(pos);
    }

    @Override
    public byte[] binaryAt(int pos) {
        return row.binaryAt(pos);
    }

    @Override
    public InternalArray arrayAt(int pos) {
        return row.arrayAt(pos);
    }

    @Override
    public InternalMap mapAt(int pos) {
        return row.mapAt(pos);
    }

    @Override
    public InternalRow rowAt(int pos, int numFields) {
        return row.rowAt(pos, numFields);
    }

    @Override
    public String toString() {
        return "CastedRow of " + row;
    }
}
