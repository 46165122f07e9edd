package dev.streamhouse.storage.types;

import java.io.Serializable;
import java.util.Objects;

/**
 * A logical type of the table format: a {@link DataTypeRoot}, its parameters and nullability.
 *
 * <p>Instances are immutable. {@link #asSQLString()} is the exact spelling stored in schema files
 * for atomic types (e.g. {@code DECIMAL(10, 2) NOT NULL}); nested types are stored as JSON objects by
 * the schema serializer.
 */
public abstract class DataType implements Serializable {
    private static final long serialVersionUID = 1L;

    private final boolean nullable;
    private final DataTypeRoot root;

    protected DataType(boolean nullable, DataTypeRoot root) {
        this.nullable = nullable;
        this.root = Objects.requireNonNull(root);
    }

    public final boolean isNullable() {
        return nullable;
    }

    public final DataTypeRoot root() {
        return root;
    }

    /** A copy of this type with the given nullability. */
    public abstract DataType copy(boolean nullable);

    public final DataType notNull() {
        return copy(false);
    }

    public final DataType nullable() {
        return copy(true);
    }

    /** The SQL spelling without nullability, e.g. {@code VARCHAR(20)} or {@code ARRAY<INT>}. */
    protected abstract String sqlWithoutNullability();

    /** The SQL spelling used in schema files, with {@code NOT NULL} when not nullable. */
    public final String asSQLString() {
        return nullable ? sqlWithoutNullability() : sqlWithoutNullability() + " NOT NULL";
    }

    /** Equality ignoring nullability (also of nested types). */
    public boolean equalsIgnoreNullable(DataType other) {
        return copy(true).equals(other.copy(true));
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (o == null || getClass() != o.getClass()) {
            return false;
        }
        DataType that = (DataType) o;
        return nullable == that.nullable && root == that.root;
    }

    @Override
    public int hashCode() {
        return Objects.hash(nullable, root);
    }

    @Override
    public String toString() {
        return asSQLString();
    }
}
