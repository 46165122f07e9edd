package dev.streamhouse.storage.types;

/** Variable-length binary string; {@code VARBINARY(2147483647)} is spelled {@code BYTES}. */
public final class VarBinaryType extends DataType {
    private static final long serialVersionUID = 1L;
    public static final int MAX_LENGTH = Integer.MAX_VALUE;

    private final int length;

    public VarBinaryType(boolean nullable, int length) {
        super(nullable, DataTypeRoot.VARBINARY);
        if (length < 1) {
            throw new IllegalArgumentException("VARBINARY length must be at least 1, got " + length);
        }
        this.length = length;
    }

    public int length() {
        return length;
    }

    @Override
    public DataType copy(boolean nullable) {
        return new VarBinaryType(nullable, length);
    }

    @Override
    protected String sqlWithoutNullability() {
        return length == MAX_LENGTH ? "BYTES" : "VARBINARY(" + length + ")";
    }

    @Override
    public boolean equals(Object o) {
        return super.equals(o) && ((VarBinaryType) o).length == length;
    }

    @Override
    public int hashCode() {
        return 31 * super.hashCode() + length;
    }
}
