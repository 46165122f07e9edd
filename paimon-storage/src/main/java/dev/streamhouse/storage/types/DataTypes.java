package dev.streamhouse.storage.types;

import java.util.ArrayList;
import java.util.List;

/** Factory methods for nullable types, in the spelling users know from SQL. */
public final class DataTypes {
    private DataTypes() {}

    public static DataType BOOLEAN() {
        return new PlainType(true, DataTypeRoot.BOOLEAN);
    }

    public static DataType TINYINT() {
        return new PlainType(true, DataTypeRoot.TINYINT);
    }

    public static DataType SMALLINT() {
        return new PlainType(true, DataTypeRoot.SMALLINT);
    }

    public static DataType INT() {
        return new PlainType(true, DataTypeRoot.INTEGER);
    }

    public static DataType BIGINT() {
        return new PlainType(true, DataTypeRoot.BIGINT);
    }

    public static DataType FLOAT() {
        return new PlainType(true, DataTypeRoot.FLOAT);
    }

    public static DataType DOUBLE() {
        return new PlainType(true, DataTypeRoot.DOUBLE);
    }

    public static DataType DATE() {
        return new PlainType(true, DataTypeRoot.DATE);
    }

    public static DataType VARIANT() {
        return new PlainType(true, DataTypeRoot.VARIANT);
    }

    public static DataType STRING() {
        return new VarCharType(true, VarCharType.MAX_LENGTH);
    }

    public static DataType VARCHAR(int length) {
        return new VarCharType(true, length);
    }

    public static DataType CHAR(int length) {
        return new CharType(true, length);
    }

    public static DataType BYTES() {
        return new VarBinaryType(true, VarBinaryType.MAX_LENGTH);
    }

    public static DataType VARBINARY(int length) {
        return new VarBinaryType(true, length);
    }

    public static DataType BINARY(int length) {
        return new BinaryType(true, length);
    }

    public static DataType DECIMAL(int precision, int scale) {
        return new DecimalType(true, precision, scale);
    }

    public static DataType TIME() {
        return new TimeType(true, 0);
    }

    public static DataType TIME(int precision) {
        return new TimeType(true, precision);
    }

    /** {@code TIMESTAMP} defaults to precision 6, as in SQL. */
    public static DataType TIMESTAMP() {
        return new TimestampType(true, 6, false);
    }

    public static DataType TIMESTAMP(int precision) {
        return new TimestampType(true, precision, false);
    }

    public static DataType TIMESTAMP_LTZ(int precision) {
        return new TimestampType(true, precision, true);
    }

    public static DataType ARRAY(DataType element) {
        return ArrayType.array(true, element);
    }

    public static DataType MULTISET(DataType element) {
        return ArrayType.multiset(true, element);
    }

    public static DataType MAP(DataType key, DataType value) {
        return new MapType(true, key, value);
    }

    /** A nested row whose fields need ids; see {@link #FIELD(int, String, DataType)}. */
    public static RowType ROW(DataField... fields) {
        return new RowType(true, List.of(fields));
    }

    public static DataField FIELD(int id, String name, DataType type) {
        return new DataField(id, name, type);
    }

    /** Largest field id inside a (possibly nested) type, -1 if it has no fields. */
    static int highestNestedFieldId(DataType type) {
        switch (type.root()) {
            case ROW:
                return ((RowType) type).highestFieldId();
            case ARRAY:
            case MULTISET:
                return highestNestedFieldId(((ArrayType) type).elementType());
            case MAP:
                return Math.max(
                        highestNestedFieldId(((MapType) type).keyType()),
                        highestNestedFieldId(((MapType) type).valueType()));
            default:
                return -1;
        }
    }

    /**
     * Re-numbers the nested row fields inside {@code type} from {@code nextId} on, as Paimon does (a
     * nested field's children before the field itself), and returns the re-numbered type. {@code nextId[0]} is advanced past the ids used. This is how a new
     * schema gives nested fields the ids following their column's id.
     */
    public static DataType assignNestedIds(DataType type, int[] nextId) {
        switch (type.root()) {
            case ROW: {
                List<DataField> out = new ArrayList<>();
                for (DataField f : ((RowType) type).fields()) {
                    // A nested field's own nested fields are numbered before it (observed with Paimon
                    // 1.3.1: r ROW<x, z ROW<a>> as column 5 gives r=5, x=6, a=7, z=8).
                    DataType nested = assignNestedIds(f.type(), nextId);
                    int id = nextId[0]++;
                    out.add(new DataField(id, f.name(), nested, f.description(), f.defaultValue()));
                }
                return new RowType(type.isNullable(), out);
            }
            case ARRAY:
                return ArrayType.array(type.isNullable(),
                        assignNestedIds(((ArrayType) type).elementType(), nextId));
            case MULTISET:
                return ArrayType.multiset(type.isNullable(),
                        assignNestedIds(((ArrayType) type).elementType(), nextId));
            case MAP:
                DataType k = assignNestedIds(((MapType) type).keyType(), nextId);
                DataType v = assignNestedIds(((MapType) type).valueType(), nextId);
                return new MapType(type.isNullable(), k, v);
            default:
                return type;
        }
    }
}
