package dev.streamhouse.flink.cdc.table;

import dev.streamhouse.flink.cdc.event.MySqlType;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.types.DataType;

/**
 * MySQL column types as Flink SQL types, as Flink CDC and Apache Paimon map them: {@code TINYINT(1)},
 * {@code BOOLEAN} and {@code BIT(1)} are BOOLEAN; unsigned integers take the next wider type
 * ({@code BIGINT UNSIGNED} DECIMAL(20, 0)); DECIMAL above precision 38 is STRING; DATETIME is
 * TIMESTAMP and TIMESTAMP is TIMESTAMP_LTZ with the declared fractional digits; text, ENUM, SET and
 * JSON are STRING; BIT(n) is BINARY((n + 7) / 8); blobs and spatial types are BYTES (WKB).
 */
public final class MySqlTypeMapping {

    private MySqlTypeMapping() {}

    public static DataType toFlinkType(MySqlType type, String column) {
        if (type.isSpatial()) {
            return DataTypes.BYTES();
        }
        int length = type.length();
        boolean unsigned = type.unsigned();
        switch (type.name()) {
            case "BOOLEAN":
            case "BOOL":
                return DataTypes.BOOLEAN();
            case "BIT":
                return length <= 1 ? DataTypes.BOOLEAN() : DataTypes.BINARY((length + 7) / 8);
            case "TINYINT":
                if (length == 1 && !unsigned) {
                    return DataTypes.BOOLEAN();
                }
                return unsigned ? DataTypes.SMALLINT() : DataTypes.TINYINT();
            case "SMALLINT":
                return unsigned ? DataTypes.INT() : DataTypes.SMALLINT();
            case "MEDIUMINT":
                return DataTypes.INT();
            case "INT":
            case "INTEGER":
                return unsigned ? DataTypes.BIGINT() : DataTypes.INT();
            case "BIGINT":
                return unsigned ? DataTypes.DECIMAL(20, 0) : DataTypes.BIGINT();
            case "YEAR":
                return DataTypes.INT();
            case "FLOAT":
                return DataTypes.FLOAT();
            case "DOUBLE":
            case "REAL":
            case "DOUBLE PRECISION":
                return DataTypes.DOUBLE();
            case "DECIMAL":
            case "NUMERIC":
            case "DEC":
            case "FIXED": {
                int precision = length > 0 ? length : 10;
                int scale = Math.max(type.scale(), 0);
                return precision > 38 ? DataTypes.STRING() : DataTypes.DECIMAL(precision, scale);
            }
            case "CHAR":
                return length > 0 ? DataTypes.CHAR(length) : DataTypes.CHAR(1);
            case "VARCHAR":
                return length > 0 ? DataTypes.VARCHAR(length) : DataTypes.STRING();
            case "TINYTEXT":
            case "TEXT":
            case "MEDIUMTEXT":
            case "LONGTEXT":
            case "ENUM":
            case "SET":
            case "JSON":
                return DataTypes.STRING();
            case "BINARY":
                return length > 0 ? DataTypes.BINARY(length) : DataTypes.BINARY(1);
            case "VARBINARY":
                return length > 0 ? DataTypes.VARBINARY(length) : DataTypes.BYTES();
            case "TINYBLOB":
            case "BLOB":
            case "MEDIUMBLOB":
            case "LONGBLOB":
                return DataTypes.BYTES();
            case "DATE":
                return DataTypes.DATE();
            case "TIME":
                return DataTypes.TIME(Math.max(length, 0));
            case "DATETIME":
                return DataTypes.TIMESTAMP(Math.max(length, 0));
            case "TIMESTAMP":
                return DataTypes.TIMESTAMP_LTZ(Math.max(length, 0));
            default:
                throw new IllegalArgumentException("Cannot map MySQL type " + type + " of column '" + column
                        + "' to a Flink type");
        }
    }
}
