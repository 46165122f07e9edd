package dev.streamhouse.storage.table.system;

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.Decimal;
import dev.streamhouse.storage.data.InternalArray;
import dev.streamhouse.storage.data.InternalMap;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.data.Timestamp;

import java.util.EnumMap;
import java.util.Map;

/**
 * A row of the audit log as a view of a data row: field {@code i} is the data row's kind as a string
 * ('+I', '-U', '+U', '-D') where {@code dataIndexOf[i]} is -1, else the data row's field
 * {@code dataIndexOf[i]}. Its own kind is +I (settable), whatever the data row's was. Copies nothing.
 */
final class AuditLogRow implements InternalRow {
    private static final Map<RowKind, BinaryString> KIND_STRINGS = new EnumMap<>(RowKind.class);

    static {
        for (RowKind k : RowKind.values()) {
            KIND_STRINGS.put(k, BinaryString.fromString(k.shortString()));
        }
    }

    private final InternalRow row;
    private final int[] dataIndexOf;
    private final BinaryString kindString;
    private RowKind kind = RowKind.INSERT;

    AuditLogRow(InternalRow row, int[] dataIndexOf) {
        this.row = row;
        this.dataIndexOf = dataIndexOf;
        this.kindString = kindString(row.rowKind());
    }

    /** The string a row kind shows as in {@code rowkind}; shared instances, do not modify. */
    static BinaryString kindString(RowKind kind) {
        return KIND_STRINGS.get(kind);
    }

    @Override
    public int arity() {
        return dataIndexOf.length;
    }

    @Override
    public RowKind rowKind() {
        return kind;
    }

    @Override
    public void setRowKind(RowKind kind) {
        this.kind = kind;
    }

    @Override
    public boolean isNullAt(int pos) {
        return dataIndexOf[pos] >= 0 && row.isNullAt(dataIndexOf[pos]);
    }

    @Override
    public boolean booleanAt(int pos) {
        return row.booleanAt(dataIndexOf[pos]);
    }

    @Override
    public byte byteAt(int pos) {
        return row.byteAt(dataIndexOf[pos]);
    }

    @Override
    public short shortAt(int pos) {
        return row.shortAt(dataIndexOf[pos]);
    }

    @Override
    public int intAt(int pos) {
        return row.intAt(dataIndexOf[pos]);
    }

    @Override
    public long longAt(int pos) {
        return row.longAt(dataIndexOf[pos]);
    }

    @Override
    public float floatAt(int pos) {
        return row.floatAt(dataIndexOf[pos]);
    }

    @Override
    public double doubleAt(int pos) {
        return row.doubleAt(dataIndexOf[pos]);
    }

    @Override
    public BinaryString stringAt(int pos) {
        return dataIndexOf[pos] < 0 ? kindString : row.stringAt(dataIndexOf[pos]);
    }

    @Override
    public Decimal decimalAt(int pos, int precision, int scale) {
        return row.decimalAt(dataIndexOf[pos], precision, scale);
    }

    @Override
    public Timestamp timestampAt(int pos, int precision) {
        return row.timestampAt(dataIndexOf[pos], precision);
    }

    @Override
    public byte[] binaryAt(int pos) {
        return row.binaryAt(dataIndexOf[pos]);
    }

    @Override
    public InternalArray arrayAt(int pos) {
        return row.arrayAt(dataIndexOf[pos]);
    }

    @Override
    public InternalMap mapAt(int pos) {
        return row.mapAt(dataIndexOf[pos]);
    }

    @Override
    public InternalRow rowAt(int pos, int numFields) {
        return row.rowAt(dataIndexOf[pos], numFields);
    }

    @Override
    public String toString() {
        return "AuditLogRow(" + kindString + ") of " + row;
    }
}
