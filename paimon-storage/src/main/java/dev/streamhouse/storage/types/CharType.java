package dev.streamhouse.storage.types;

/** Fixed-length character string, {@code CHAR(n)}. */
public final class CharType extends DataType {
    private static final long serialVersionUID = 1L;
    public static final int MAX_LENGTH = Integer.MAX_VALUE;

    private final int length;

    public CharType(boolean nullable, int length) {
        super(nullable, DataTypeRoot.CHAR);
        if (length < 1) {
            throw new IllegalArgumentException("CHAR length must be at least 1, got " + length);
        }
        this.length = length;
    }

    public int length() {
        return length;
    }

    @Override
    public DataType copy(boolean nullable) {
        return new CharType(nullable, length);
    }

    @Override
    protected String sqlWithoutNullability() {
        return "CHAR(" + length + ")";
    }

    @Override
    public boolean equals(Object o) {
        return super.equals(o) && ((CharType) o).length == length;
    }

    @Override
    public int hashCode() {
        return 31 * super.hashCode() + length;
    }
}
