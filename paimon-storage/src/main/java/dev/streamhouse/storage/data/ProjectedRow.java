package dev.streamhouse.storage.data;

/**
 * A view of another row with fields re-ordered or selected: field {@code i} of this row is field
 * {@code mapping[i]} of the underlying row, or NULL when {@code mapping[i]} is -1. Reusable with
 * {@link #replace(InternalRow)}; copies nothing.
 */
public final class ProjectedRow implements InternalRow {
    private final int[] mapping;
    private InternalRow row;

    public ProjectedRow(int[] mapping) {
        this.mapping = mapping.clone();
    }

    public ProjectedRow replace(InternalRow row) {
        this.row = row;
        return this;
    }

    @Override
    public int arity() {
        return mapping.length;
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
        return mapping[pos] < 0 || row.isNullAt(mapping[pos]);
    }

    @Override
    public boolean booleanAt(int pos) {
        return row.booleanAt(mapping[pos]);
    }

    @Override
    public byte byteAt(int pos) {
        return row.byteAt(mapping[pos]);
    }

    @Override
    public short shortAt(int pos) {
        return row.shortAt(mapping[pos]);
    }

    @Override
    public int intAt(int pos) {
        return row.intAt(mapping[pos]);
    }

    @Override
    public long longAt(int pos) {
        return row.longAt(mapping[pos]);
    }

    @Override
    public float floatAt(int pos) {
        return row.floatAt(mapping[pos]);
    }

    @Override
    public double doubleAt(int pos) {
        return row.doubleAt(mapping[pos]);
    }

    @Override
    public BinaryString stringAt(int pos) {
        return row.stringAt(mapping[pos]);
    }

    @Override
    public Decimal decimalAt(int pos, int precision, int scale) {
        return row.decimalAt(mapping[pos], precision, scale);
    }

    @Override
    public Timestamp timestampAt(int pos, int precision) {
        return row.timestampAt(mapping[pos], precision);
    }

    @Override
    public byte[] binaryAt(int pos) {
        return row.binaryAt(mapping[pos]);
    }

    @Override
    public InternalArray arrayAt(int pos) {
        return row.arrayAt(mapping[pos]);
    }

    @Override
    public InternalMap mapAt(int pos) {
        return row.mapAt(mapping[pos]);
    }

    @Override
    public InternalRow rowAt(int pos, int numFields) {
        return row.rowAt(mapping[pos], numFields);
    }

    @Override
    public String toString() {
        return "ProjectedRow" + java.util.Arrays.toString(mapping) + " of " + row;
    }
}
