package dev.streamhouse.storage.types;

/** Variable-length character string; {@code VARCHAR(2147483647)} is spelled {@code STRING}. */
public final class VarCharType extends DataType {
    private static final long serialVersionUID = 1L;
    public static final int MAX_LENGTH = Integer.MAX_VALUE;

    private final int length;

    public VarCharType(boolean nullable, int length) {
        super(nullable, DataTypeRoot.VARCHAR);
        if (length < 1) {
            throw new IllegalArgumentException("VARCHAR length must be at least 1, got " + length);
        }
        this.length = length;
    }

    public int length() {
        return length;
    }

    @Override
    public DataType copy(boolean nullable) {
        return new VarCharType(nullable, length);
    }

    @Override
    protected String sqlWithoutNullability() {
        return length == MAX_LENGTH ? "STRING" : "VARCHAR(" + length + ")";
    }

    @Override
    public boolean equals(Object o) {
        return super.equals(o) && ((VarCharType) o).length == length;
    }

    @Override
    public int hashCode() {
        return 31 * super.hashCode() + length;
    }
}
