package dev.streamhouse.hive;

import dev.streamhouse.storage.types.ArrayType;
import dev.streamhouse.storage.types.CharType;
import dev.streamhouse.storage.types.DataField;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.DecimalType;
import dev.streamhouse.storage.types.MapType;
import dev.streamhouse.storage.types.RowType;
import dev.streamhouse.storage.types.VarCharType;

import java.util.stream.Collectors;

/**
 * A column type as a Hive metastore's column records it, the names Apache Paimon's Hive catalog writes,
 * so that engines reading the table through the metastore see the same columns for both stores. Hive has
 * no time of day (a {@code string}), no multiset (a {@code map<T,int>} of counts), and shorter character
 * types (longer ones are {@code string}).
 */
final class HiveTypes {
    /** The longest CHAR and VARCHAR Hive has. */
    static final int MAX_CHAR_LENGTH = 255;
    static final int MAX_VARCHAR_LENGTH = 65535;

    private HiveTypes() {}

    static String of(DataType type) {
        switch (type.root()) {
            case BOOLEAN:
                return "boolean";
            case TINYINT:
                return "tinyint";
            case SMALLINT:
                return "smallint";
            case INTEGER:
                return "int";
            case BIGINT:
                return "bigint";
            case FLOAT:
                return "float";
            case DOUBLE:
                return "double";
            case DECIMAL:
                DecimalType decimal = (DecimalType) type;
                return "decimal(" + decimal.precision() + "," + decimal.scale() + ")";
            case CHAR:
                int charLength = ((CharType) type).length();
                return charLength <= MAX_CHAR_LENGTH ? "char(" + charLength + ")" : "string";
            case VARCHAR:
                int varcharLength = ((VarCharType) type).length();
                return varcharLength <= MAX_VARCHAR_LENGTH ? "varchar(" + varcharLength + ")" : "string";
            case BINARY:
            case VARBINARY:
                return "binary";
            case DATE:
                return "date";
            case TIME_WITHOUT_TIME_ZONE:
                return "string";
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                return "timestamp";
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return "timestamp with local time zone";
            case ARRAY:
                return "array<" + of(((ArrayType) type).elementType()) + ">";
            case MULTISET:
                return "map<" + of(((ArrayType) type).elementType()) + ",int>";
            case MAP:
                MapType map = (MapType) type;
                return "map<" + of(map.keyType()) + "," + of(map.valueType()) + ">";
            case ROW:
                return ((RowType) type).fields().stream().map(HiveTypes::field)
                        .collect(Collectors.joining(",", "struct<", ">"));
            case VARIANT:
                return "struct<value:binary,metadata:binary>";
            default:
                throw new IllegalArgumentException("Type " + type.asSQLString() + " has no Hive metastore type");
        }
    }

    private static String field(DataField field) {
        return field.name() + ":" + of(field.type());
    }
}
