package dev.streamhouse.storage.types;

/** Fixed-length binary string, {@code BINARY(n)}. */
public final class BinaryType extends DataType {
    private static final long serialVersionUID = 1L;

    private final int length;

    public BinaryType(boolean nullable, int length) {
        super(nullable, DataTypeRoot.BINARY);
        if (length < 1) {
            throw new IllegalArgumentException("BINARY length must be at least 1, got " + length);
        }
        this.length = length;
    }

    public int length() {
        return length;
    }

    @Override
    public DataType copy(boolean nullable) {
        return new BinaryType(nullable, length);
    }

    @Override
    protected String sqlWithoutNullability() {
        return "BINARY(" + length + ")";
    }

    @Override
    public boolean equals(Object o) {
        return super.equals(o) && ((BinaryType) o).length == length;
    }

    @Override
    public int hashCode() {
        return 31 * super.hashCode() + length;
    }
}
