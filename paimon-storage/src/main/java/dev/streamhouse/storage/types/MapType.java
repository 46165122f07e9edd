package dev.streamhouse.storage.types;

import java.util.Objects;

/** {@code MAP<K, V>}. */
public final class MapType extends DataType {
    private static final long serialVersionUID = 1L;

    private final DataType keyType;
    private final DataType valueType;

    public MapType(boolean nullable, DataType keyType, DataType valueType) {
        super(nullable, DataTypeRoot.MAP);
        this.keyType = Objects.requireNonNull(keyType);
        this.valueType = Objects.requireNonNull(valueType);
    }

    public DataType keyType() {
        return keyType;
    }

    public DataType valueType() {
        return valueType;
    }

    @Override
    public DataType copy(boolean nullable) {
        return new MapType(nullable, keyType, valueType);
    }

    @Override
    protected String sqlWithoutNullability() {
        return "MAP<" + keyType.asSQLString() + ", " + valueType.asSQLString() + ">";
    }

    @Override
    public boolean equalsIgnoreNullable(DataType other) {
        return other instanceof MapType
                && keyType.equalsIgnoreNullable(((MapType) other).keyType)
                && valueType.equalsIgnoreNullable(((MapType) other).valueType);
    }

    @Override
    public boolean equals(Object o) {
        return super.equals(o)
                && ((MapType) o).keyType.equals(keyType)
                && ((MapType) o).valueType.equals(valueType);
    }

    @Override
    public int hashCode() {
        return Objects.hash(super.hashCode(), keyType, valueType);
    }
}
