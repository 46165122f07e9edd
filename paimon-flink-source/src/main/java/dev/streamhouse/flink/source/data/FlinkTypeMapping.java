package dev.streamhouse.flink.source.data;

import dev.streamhouse.storage.types.ArrayType;
import dev.streamhouse.storage.types.BinaryType;
import dev.streamhouse.storage.types.CharType;
import dev.streamhouse.storage.types.DataField;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.DecimalType;
import dev.streamhouse.storage.types.MapType;
import dev.streamhouse.storage.types.RowType;
import dev.streamhouse.storage.types.TimeType;
import dev.streamhouse.storage.types.TimestampType;
import dev.streamhouse.storage.types.VarBinaryType;
import dev.streamhouse.storage.types.VarCharType;
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
 * Maps the table format's types to Flink's logical types, so that Flink knows the layout of the
 * {@link org.apache.flink.table.data.RowData} a read produces (see {@link FlinkRowData} for the value
 * mapping). Nullability, lengths, precisions, field names and field descriptions carry over; field ids
 * have no Flink counterpart and are dropped.
 *
 * <p>Every type of the format maps except VARIANT, which Flink 1.20 does not have: mapping it throws
 * {@link UnsupportedOperationException}. Stateless and thread-safe.
 */
public final class FlinkTypeMapping {
    private FlinkTypeMapping() {}

    /** The Flink row type of rows of {@code type}, e.g. a table's row type or a projection of it. */
    public static org.apache.flink.table.types.logical.RowType toFlinkRowType(RowType type) {
        return (org.apache.flink.table.types.logical.RowType) toFlink(type);
    }

    /**
     * The Flink logical type of {@code type}.
     *
     * @throws UnsupportedOperationException for VARIANT (also nested), which Flink 1.20 cannot represent
     */
    public static LogicalType toFlink(DataType type) {
        boolean nullable = type.isNullable();
        switch (type.root()) {
            case CHAR:
                return new org.apache.flink.table.types.logical.CharType(nullable, ((CharType) type).length());
            case VARCHAR:
                return new org.apache.flink.table.types.logical.VarCharType(nullable, ((VarCharType) type).length());
            case BOOLEAN:
                return new BooleanType(nullable);
            case BINARY:
                return new org.apache.flink.table.types.logical.BinaryType(nullable, ((BinaryType) type).length());
            case VARBINARY:
                return new org.apache.flink.table.types.logical.VarBinaryType(nullable,
                        ((VarBinaryType) type).length());
            case DECIMAL: {
                DecimalType d = (DecimalType) type;
                return new org.apache.flink.table.types.logical.DecimalType(nullable, d.precision(), d.scale());
            }
            case TINYINT:
                return new TinyIntType(nullable);
            case SMALLINT:
                return new SmallIntType(nullable);
            case INTEGER:
                return new IntType(nullable);
            case BIGINT:
                return new BigIntType(nullable);
            case FLOAT:
                return new FloatType(nullable);
            case DOUBLE:
                return new DoubleType(nullable);
            case DATE:
                return new DateType(nullable);
            case TIME_WITHOUT_TIME_ZONE:
                return new org.apache.flink.table.types.logical.TimeType(nullable, ((TimeType) type).precision());
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                return new org.apache.flink.table.types.logical.TimestampType(nullable,
                        ((TimestampType) type).precision());
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return new LocalZonedTimestampType(nullable, ((TimestampType) type).precision());
            case ARRAY:
                return new org.apache.flink.table.types.logical.ArrayType(nullable,
                        toFlink(((ArrayType) type).elementType()));
            case MULTISET:
                return new MultisetType(nullable, toFlink(((ArrayType) type).elementType()));
            case MAP: {
                MapType m = (MapType) type;
                return new org.apache.flink.table.types.logical.MapType(nullable, toFlink(m.keyType()),
                        toFlink(m.valueType()));
            }
            case ROW: {
                List<org.apache.flink.table.types.logical.RowType.RowField> fields = new ArrayList<>();
                for (DataField f : ((RowType) type).fields()) {
                    fields.add(new org.apache.flink.table.types.logical.RowType.RowField(f.name(), toFlink(f.type()),
                            f.description()));
                }
                return new org.apache.flink.table.types.logical.RowType(nullable, fields);
            }
            case VARIANT:
                throw new UnsupportedOperationException("Cannot read a VARIANT column in Flink 1.20: Flink has no "
                        + "VARIANT type; leave the column out of the projection");
            default:
                throw new UnsupportedOperationException("Cannot map type " + type + " to a Flink type");
        }
    }
}
