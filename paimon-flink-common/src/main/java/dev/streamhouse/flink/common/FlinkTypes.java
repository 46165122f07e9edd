package dev.streamhouse.flink.common;

import dev.streamhouse.storage.types.ArrayType;
import dev.streamhouse.storage.types.BinaryType;
import dev.streamhouse.storage.types.CharType;
import dev.streamhouse.storage.types.DataField;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.DataTypeRoot;
import dev.streamhouse.storage.types.DecimalType;
import dev.streamhouse.storage.types.MapType;
import dev.streamhouse.storage.types.PlainType;
import dev.streamhouse.storage.types.RowType;
import dev.streamhouse.storage.types.TimeType;
import dev.streamhouse.storage.types.TimestampType;
import dev.streamhouse.storage.types.VarBinaryType;
import dev.streamhouse.storage.types.VarCharType;

import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.BooleanType;
import org.apache.flink.table.types.logical.DateType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.FloatType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.MultisetType;
import org.apache.flink.table.types.logical.SmallIntType;
import org.apache.flink.table.types.logical.TinyIntType;

import java.util.ArrayList;
import java.util.List;

/**
 * The one mapping between Flink's logical types and the table format's {@link DataType}s, both
 * directions, used by the catalog (CREATE / ALTER TABLE, the tables Flink sees), the source (the
 * layout of the rows a read produces) and the sink builder; for every type the
 * format can store: BOOLEAN, TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE, DECIMAL(p, s), CHAR(n),
 * VARCHAR(n) / STRING, BINARY(n), VARBINARY(n) / BYTES, DATE, TIME(p), TIMESTAMP(p),
 * TIMESTAMP_LTZ(p), ARRAY, MAP, MULTISET and ROW (field names, comments), each with its
 * nullability.
 *
 * <p>Nested row fields of a converted type carry placeholder ids, numbered from 0 in the order
 * {@link dev.streamhouse.storage.types.DataTypes#assignNestedIds} uses; the schema builder renumbers
 * them when the type becomes a column. A type that cannot be stored (INTERVAL, TIMESTAMP WITH TIME
 * ZONE, RAW, structured and distinct types, NULL, ...) or cannot be shown to Flink (VARIANT) fails
 * with a {@link ValidationException} naming the column and the type. Stateless and thread-safe.
 */
public final class FlinkTypes {
    private FlinkTypes() {}

    /**
     * The storage type of a Flink type.
     *
     * @param column the column being converted, for error messages
     * @throws ValidationException if the format cannot store the type
     */
    public static DataType toStorageType(LogicalType type, String column) {
        int[] nextId = {0};
        return toStorage(type, column, nextId);
    }

    /**
     * The Flink row type of rows of {@code type}, e.g. a table's row type or a projection of it; a
     * field Flink cannot represent fails naming that field.
     *
     * @throws ValidationException if Flink cannot represent a field's type (VARIANT)
     */
    public static org.apache.flink.table.types.logical.RowType toFlinkRowType(RowType type) {
        List<org.apache.flink.table.types.logical.RowType.RowField> fields = new ArrayList<>();
        for (DataField f : type.fields()) {
            fields.add(new org.apache.flink.table.types.logical.RowType.RowField(
                    f.name(), toFlinkType(f.type(), f.name()), f.description()));
        }
        return new org.apache.flink.table.types.logical.RowType(type.isNullable(), fields);
    }

    /**
     * The Flink type of a storage type.
     *
     * @param column the column being converted, for error messages
     * @throws ValidationException if Flink cannot represent the type (VARIANT)
     */
    public static LogicalType toFlinkType(DataType type, String column) {
        boolean n = type.isNullable();
        switch (type.root()) {
            case BOOLEAN:
                return new BooleanType(n);
            case TINYINT:
                return new TinyIntType(n);
            case SMALLINT:
                return new SmallIntType(n);
            case INTEGER:
                return new IntType(n);
            case BIGINT:
                return new BigIntType(n);
            case FLOAT:
                return new FloatType(n);
            case DOUBLE:
                return new DoubleType(n);
            case DATE:
                return new DateType(n);
            case DECIMAL:
                DecimalType d = (DecimalType) type;
                return new org.apache.flink.table.types.logical.DecimalType(n, d.precision(), d.scale());
            case CHAR:
                return new org.apache.flink.table.types.logical.CharType(n, ((CharType) type).length());
            case VARCHAR:
                return new org.apache.flink.table.types.logical.VarCharType(n, ((VarCharType) type).length());
            case BINARY:
                return new org.apache.flink.table.types.logical.BinaryType(n, ((BinaryType) type).length());
            case VARBINARY:
                return new org.apache.flink.table.types.logical.VarBinaryType(n, ((VarBinaryType) type).length());
            case TIME_WITHOUT_TIME_ZONE:
                return new org.apache.flink.table.types.logical.TimeType(n, ((TimeType) type).precision());
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                return new org.apache.flink.table.types.logical.TimestampType(n, ((TimestampType) type).precision());
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return new LocalZonedTimestampType(n, ((TimestampType) type).precision());
            case ARRAY: {
                ArrayType a = (ArrayType) type;
                LogicalType element = toFlinkType(a.elementType(), column);
                return new org.apache.flink.table.types.logical.ArrayType(n, element);
            }
            case MULTISET:
                return new MultisetType(n, toFlinkType(((ArrayType) type).elementType(), column));
            case MAP: {
                MapType m = (MapType) type;
                return new org.apache.flink.table.types.logical.MapType(
                        n, toFlinkType(m.keyType(), column), toFlinkType(m.valueType(), column));
            }
            case ROW: {
                List<org.apache.flink.table.types.logical.RowType.RowField> fields = new ArrayList<>();
                for (DataField f : ((RowType) type).fields()) {
                    fields.add(new org.apache.flink.table.types.logical.RowType.RowField(
                            f.name(), toFlinkType(f.type(), column + "." + f.name()), f.description()));
                }
                return new org.apache.flink.table.types.logical.RowType(n, fields);
            }
            default:
                throw new ValidationException("Cannot show column '" + column + "' of type " + type
                        + " in Flink: Flink 1.20 has no " + type.root() + " type; leave the column out of the "
                        + "projection, read the table with an engine that supports it, or drop the column");
        }
    }

    private static DataType toStorage(LogicalType type, String column, int[] nextId) {
        boolean n = type.isNullable();
        try {
            switch (type.getTypeRoot()) {
                case BOOLEAN:
                    return new PlainType(n, DataTypeRoot.BOOLEAN);
                case TINYINT:
                    return new PlainType(n, DataTypeRoot.TINYINT);
                case SMALLINT:
                    return new PlainType(n, DataTypeRoot.SMALLINT);
                case INTEGER:
                    return new PlainType(n, DataTypeRoot.INTEGER);
                case BIGINT:
                    return new PlainType(n, DataTypeRoot.BIGINT);
                case FLOAT:
                    return new PlainType(n, DataTypeRoot.FLOAT);
                case DOUBLE:
                    return new PlainType(n, DataTypeRoot.DOUBLE);
                case DATE:
                    return new PlainType(n, DataTypeRoot.DATE);
                case DECIMAL: {
                    org.apache.flink.table.types.logical.DecimalType d =
                            (org.apache.flink.table.types.logical.DecimalType) type;
                    return new DecimalType(n, d.getPrecision(), d.getScale());
                }
                case CHAR:
                    return new CharType(n, ((org.apache.flink.table.types.logical.CharType) type).getLength());
                case VARCHAR:
                    return new VarCharType(n, ((org.apache.flink.table.types.logical.VarCharType) type).getLength());
                case BINARY:
                    return new BinaryType(n, ((org.apache.flink.table.types.logical.BinaryType) type).getLength());
                case VARBINARY:
                    return new VarBinaryType(n,
                            ((org.apache.flink.table.types.logical.VarBinaryType) type).getLength());
                case TIME_WITHOUT_TIME_ZONE:
                    return new TimeType(n, ((org.apache.flink.table.types.logical.TimeType) type).getPrecision());
                case TIMESTAMP_WITHOUT_TIME_ZONE:
                    return new TimestampType(n,
                            ((org.apache.flink.table.types.logical.TimestampType) type).getPrecision(), false);
                case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                    return new TimestampType(n, ((LocalZonedTimestampType) type).getPrecision(), true);
                case ARRAY:
                    return ArrayType.array(n, toStorage(
                            ((org.apache.flink.table.types.logical.ArrayType) type).getElementType(), column, nextId));
                case MULTISET:
                    return ArrayType.multiset(n, toStorage(((MultisetType) type).getElementType(), column, nextId));
                case MAP: {
                    org.apache.flink.table.types.logical.MapType m = (org.apache.flink.table.types.logical.MapType) type;
                    DataType key = toStorage(m.getKeyType(), column, nextId);
                    DataType value = toStorage(m.getValueType(), column, nextId);
                    return new MapType(n, key, value);
                }
                case ROW:
                    return toStorageRow((org.apache.flink.table.types.logical.RowType) type, column, nextId);
                default:
                    throw unsupported(type, column, null);
            }
        } catch (IllegalArgumentException e) {
            throw unsupported(type, column, e);
        }
    }

    private static RowType toStorageRow(org.apache.flink.table.types.logical.RowType row, String column, int[] nextId) {
        List<DataField> fields = new ArrayList<>();
        for (org.apache.flink.table.types.logical.RowType.RowField f : row.getFields()) {
            // Children first, as DataTypes.assignNestedIds numbers them.
            DataType fieldType = toStorage(f.getType(), column + "." + f.getName(), nextId);
            fields.add(new DataField(nextId[0]++, f.getName(), fieldType, f.getDescription().orElse(null), null));
        }
        return new RowType(row.isNullable(), fields);
    }

    private static ValidationException unsupported(LogicalType type, String column, IllegalArgumentException cause) {
        String why = cause == null ? "the table format has no such type" : cause.getMessage();
        return new ValidationException("Cannot store column '" + column + "' of type " + type.asSummaryString()
                + ": " + why + ". Supported types: BOOLEAN, TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE, "
                + "DECIMAL, CHAR, VARCHAR/STRING, BINARY, VARBINARY/BYTES, DATE, TIME, TIMESTAMP, TIMESTAMP_LTZ, "
                + "ARRAY, MAP, MULTISET and ROW", cause);
    }
}
