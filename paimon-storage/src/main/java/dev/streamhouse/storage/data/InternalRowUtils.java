package dev.streamhouse.storage.data;

import dev.streamhouse.storage.types.ArrayType;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.DataTypeRoot;
import dev.streamhouse.storage.types.PlainType;
import dev.streamhouse.storage.types.DecimalType;
import dev.streamhouse.storage.types.MapType;
import dev.streamhouse.storage.types.RowType;
import dev.streamhouse.storage.types.TimestampType;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Type-directed access, copying and comparison of internal values. */
public final class InternalRowUtils {
    /** A MULTISET is a map from element to its (INT) count. */
    public static final DataType MULTISET_COUNT_TYPE = new PlainType(false, DataTypeRoot.INTEGER);

    private InternalRowUtils() {}

    /** A getter for field {@code pos} of type {@code type}; it returns null for NULL. */
    public static FieldGetter fieldGetter(DataType type, int pos) {
        FieldGetter getter;
        switch (type.root()) {
            case BOOLEAN:
                getter = row -> row.booleanAt(pos);
                break;
            case TINYINT:
                getter = row -> row.byteAt(pos);
                break;
            case SMALLINT:
                getter = row -> row.shortAt(pos);
                break;
            case INTEGER:
            case DATE:
            case TIME_WITHOUT_TIME_ZONE:
                getter = row -> row.intAt(pos);
                break;
            case BIGINT:
                getter = row -> row.longAt(pos);
                break;
            case FLOAT:
                getter = row -> row.floatAt(pos);
                break;
            case DOUBLE:
                getter = row -> row.doubleAt(pos);
                break;
            case CHAR:
            case VARCHAR:
                getter = row -> row.stringAt(pos);
                break;
            case BINARY:
            case VARBINARY:
            case VARIANT:
                getter = row -> row.binaryAt(pos);
                break;
            case DECIMAL: {
                DecimalType d = (DecimalType) type;
                getter = row -> row.decimalAt(pos, d.precision(), d.scale());
                break;
            }
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE: {
                int precision = ((TimestampType) type).precision();
                getter = row -> row.timestampAt(pos, precision);
                break;
            }
            case ARRAY:
                getter = row -> row.arrayAt(pos);
                break;
            case MAP:
            case MULTISET:
                getter = row -> row.mapAt(pos);
                break;
            case ROW: {
                int n = ((RowType) type).fieldCount();
                getter = row -> row.rowAt(pos, n);
                break;
            }
            default:
                throw new IllegalArgumentException("Unsupported type " + type);
        }
        return row -> row.isNullAt(pos) ? null : getter.get(row);
    }

    /** Getters for all fields of a row type. */
    public static FieldGetter[] fieldGetters(List<DataType> types) {
        FieldGetter[] getters = new FieldGetter[types.size()];
        for (int i = 0; i < getters.length; i++) {
            getters[i] = fieldGetter(types.get(i), i);
        }
        return getters;
    }

    /** Reads element {@code pos} of an array as an internal object, or null. */
    public static Object arrayElement(InternalArray array, int pos, DataType elementType) {
        if (array.isNullAt(pos)) {
            return null;
        }
        switch (elementType.root()) {
            case BOOLEAN:
                return array.booleanAt(pos);
            case TINYINT:
                return array.byteAt(pos);
            case SMALLINT:
                return array.shortAt(pos);
            case INTEGER:
            case DATE:
            case TIME_WITHOUT_TIME_ZONE:
                return array.intAt(pos);
            case BIGINT:
                return array.longAt(pos);
            case FLOAT:
                return array.floatAt(pos);
            case DOUBLE:
                return array.doubleAt(pos);
            case CHAR:
            case VARCHAR:
                return array.stringAt(pos);
            case BINARY:
            case VARBINARY:
            case VARIANT:
                return array.binaryAt(pos);
            case DECIMAL:
                DecimalType d = (DecimalType) elementType;
                return array.decimalAt(pos, d.precision(), d.scale());
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return array.timestampAt(pos, ((TimestampType) elementType).precision());
            case ARRAY:
                return array.arrayAt(pos);
            case MAP:
            case MULTISET:
                return array.mapAt(pos);
            case ROW:
                return array.rowAt(pos, ((RowType) elementType).fieldCount());
            default:
                throw new IllegalArgumentException("Unsupported type " + elementType);
        }
    }

    /**
     * A deep copy of {@code row} as a {@link GenericRow}, safe to keep after the source (e.g. a reused
     * reader row) changes.
     */
    public static GenericRow copyToGeneric(InternalRow row, RowType type) {
        GenericRow out = new GenericRow(type.fieldCount());
        out.setRowKind(row.rowKind());
        for (int i = 0; i < type.fieldCount(); i++) {
            out.setField(i, copyValue(fieldGetter(type.typeAt(i), i).get(row), type.typeAt(i)));
        }
        return out;
    }

    /** A deep copy of an internal value of the given type. */
    public static Object copyValue(Object value, DataType type) {
        if (value == null) {
            return null;
        }
        switch (type.root()) {
            case CHAR:
            case VARCHAR:
                return ((BinaryString) value).copy();
            case BINARY:
            case VARBINARY:
            case VARIANT:
                return ((byte[]) value).clone();
            case ARRAY: {
                InternalArray a = (InternalArray) value;
                DataType et = ((ArrayType) type).elementType();
                Object[] out = new Object[a.size()];
                for (int i = 0; i < out.length; i++) {
                    out[i] = copyValue(arrayElement(a, i, et), et);
                }
                return new GenericArray(out);
            }
            case MAP:
            case MULTISET: {
                InternalMap m = (InternalMap) value;
                DataType kt = type.root() == DataTypeRoot.MAP ? ((MapType) type).keyType() : ((ArrayType) type).elementType();
                DataType vt = type.root() == DataTypeRoot.MAP ? ((MapType) type).valueType() : MULTISET_COUNT_TYPE;
                InternalArray keys = m.keyArray();
                InternalArray values = m.valueArray();
                Map<Object, Object> out = new LinkedHashMap<>();
                for (int i = 0; i < m.size(); i++) {
                    out.put(copyValue(arrayElement(keys, i, kt), kt), copyValue(arrayElement(values, i, vt), vt));
                }
                return new GenericMap(out);
            }
            case ROW:
                return copyToGeneric((InternalRow) value, (RowType) type);
            default:
                return value;
        }
    }

    /**
     * Compares two non-null internal values of an orderable type by the format's natural order
     * (signed numbers, unsigned-bytewise strings and binaries, false &lt; true).
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public static int compare(Object a, Object b, DataType type) {
        switch (type.root()) {
            case BINARY:
            case VARBINARY:
                return Arrays.compareUnsigned((byte[]) a, (byte[]) b);
            default:
                return ((Comparable) a).compareTo(b);
        }
    }

    /** Whether values of this type have a min/max order usable for statistics and keys. */
    public static boolean isOrderable(DataType type) {
        return !type.root().isNested();
    }

    /** Writes {@code value} (internal, nullable) of {@code type} into field {@code pos}. */
    public static void writeField(BinaryRowWriter writer, int pos, Object value, DataType type) {
        switch (type.root()) {
            case DECIMAL:
                writer.writeDecimal(pos, (Decimal) value, ((DecimalType) type).precision());
                return;
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                writer.writeTimestamp(pos, (Timestamp) value, ((TimestampType) type).precision());
                return;
            default:
                break;
        }
        if (value == null) {
            writer.setNullAt(pos);
            return;
        }
        switch (type.root()) {
            case BOOLEAN:
                writer.writeBoolean(pos, (Boolean) value);
                break;
            case TINYINT:
                writer.writeByte(pos, (Byte) value);
                break;
            case SMALLINT:
                writer.writeShort(pos, (Short) value);
                break;
            case INTEGER:
            case DATE:
            case TIME_WITHOUT_TIME_ZONE:
                writer.writeInt(pos, (Integer) value);
                break;
            case BIGINT:
                writer.writeLong(pos, (Long) value);
                break;
            case FLOAT:
                writer.writeFloat(pos, (Float) value);
                break;
            case DOUBLE:
                writer.writeDouble(pos, (Double) value);
                break;
            case CHAR:
            case VARCHAR:
                writer.writeString(pos, (BinaryString) value);
                break;
            case BINARY:
            case VARBINARY:
                writer.writeBinary(pos, (byte[]) value);
                break;
            default:
                throw new IllegalArgumentException(
                        "Type " + type + " cannot be stored in a BinaryRow (partition, key or statistics)");
        }
    }

}
