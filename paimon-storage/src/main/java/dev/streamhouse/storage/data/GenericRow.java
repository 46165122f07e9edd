package dev.streamhouse.storage.data;

import java.util.Arrays;
import java.util.Objects;

/** A row backed by an array of internal values (null for SQL NULL). */
public final class GenericRow implements InternalRow {
    private final Object[] fields;
    private RowKind kind;

    public GenericRow(int arity) {
        this(RowKind.INSERT, new Object[arity]);
    }

    private GenericRow(RowKind kind, Object[] fields) {
        this.kind = Objects.requireNonNull(kind);
        this.fields = fields;
    }

    /** A +I row of the given internal values. Strings must be {@link BinaryString}s. */
    public static GenericRow of(Object... values) {
        return new GenericRow(RowKind.INSERT, values);
    }

    public static GenericRow ofKind(RowKind kind, Object... values) {
        return new GenericRow(kind, values);
    }

    public void setField(int pos, Object value) {
        fields[pos] = value;
    }

    public Object field(int pos) {
        return fields[pos];
    }

    @Override
    public int arity() {
        return fields.length;
    }

    @Override
    public RowKind rowKind() {
        return kind;
    }

    @Override
    public void setRowKind(RowKind kind) {
        this.kind = Objects.requireNonNull(kind);
    }

    @Override
    public boolean isNullAt(int pos) {
        return fields[pos] == null;
    }

    @Override
    public boolean booleanAt(int pos) {
        return (Boolean) fields[pos];
    }

    @Override
    public byte byteAt(int pos) {
        return (Byte) fields[pos];
    }

    @Override
    public short shortAt(int pos) {
        return (Short) fields[pos];
    }

    @Override
    public int intAt(int pos) {
        return (Integer) fields[pos];
    }

    @Override
    public long longAt(int pos) {
        return (Long) fields[pos];
    }

    @Override
    public float floatAt(int pos) {
        return (Float) fields[pos];
    }

    @Override
    public double doubleAt(int pos) {
        return (Double) fields[pos];
    }

    @Override
    public BinaryString stringAt(int pos) {
        return (BinaryString) fields[pos];
    }

    @Override
    public Decimal decimalAt(int pos, int precision, int scale) {
        return (Decimal) fields[pos];
    }

    @Override
    public Timestamp timestampAt(int pos, int precision) {
        return (Timestamp) fields[pos];
    }

    @Override
    public byte[] binaryAt(int pos) {
        return (byte[]) fields[pos];
    }

    @Override
    public InternalArray arrayAt(int pos) {
        return (InternalArray) fields[pos];
    }

    @Override
    public InternalMap mapAt(int pos) {
        return (InternalMap) fields[pos];
    }

    @Override
    public InternalRow rowAt(int pos, int numFields) {
        return (InternalRow) fields[pos];
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof GenericRow)) {
            return false;
        }
        GenericRow that = (GenericRow) o;
        return kind == that.kind && Arrays.deepEquals(fields, that.fields);
    }

    @Override
    public int hashCode() {
        return 31 * kind.hashCode() + Arrays.deepHashCode(fields);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(kind.shortString()).append('(');
        for (int i = 0; i < fields.length; i++) {
            if (i > 0) {
                sb.append(", ");
            }
            Object f = fields[i];
            sb.append(f instanceof byte[] ? Arrays.toString((byte[]) f) : String.valueOf(f));
        }
        return sb.append(')').toString();
    }
}
