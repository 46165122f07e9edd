package dev.streamhouse.storage.types;

import java.util.Objects;

/** {@code ARRAY<T>}, or {@code MULTISET<T>} when created as a multiset. */
public final class ArrayType extends DataType {
    private static final long serialVersionUID = 1L;

    private final DataType elementType;

    private ArrayType(boolean nullable, DataTypeRoot root, DataType elementType) {
        super(nullable, root);
        this.elementType = Objects.requireNonNull(elementType);
    }

    public static ArrayType array(boolean nullable, DataType elementType) {
        return new ArrayType(nullable, DataTypeRoot.ARRAY, elementType);
    }

    public static ArrayType multiset(boolean nullable, DataType elementType) {
        return new ArrayType(nullable, DataTypeRoot.MULTISET, elementType);
    }

    public DataType elementType() {
        return elementType;
    }

    public boolean isMultiset() {
        return root() == DataTypeRoot.MULTISET;
    }

    @Override
    public DataType copy(boolean nullable) {
        return new ArrayType(nullable, root(), elementType);
    }

    @Override
    protected String sqlWithoutNullability() {
        return root().name() + "<" + elementType.asSQLString() + ">";
    }

    @Override
    public boolean equalsIgnoreNullable(DataType other) {
        return other instanceof ArrayType
                && other.root() == root()
                && elementType.equalsIgnoreNullable(((ArrayType) other).elementType);
    }

    @Override
    public boolean equals(Object o) {
        return super.equals(o) && ((ArrayType) o).elementType.equals(elementType);
    }

    @Override
    public int hashCode() {
        return 31 * super.hashCode() + elementType.hashCode();
    }
}
