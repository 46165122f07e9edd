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
        int length = type.length();
        boolean unsigned = type.unsigned();
        return switch (type.family()) {
            case BOOLEAN -> DataTypes.BOOLEAN();
            case BIT -> length <= 1 ? DataTypes.BOOLEAN() : DataTypes.BINARY((length + 7) / 8);
            case TINYINT -> {
                if (length == 1 && !unsigned) {
                    yield DataTypes.BOOLEAN();
                }
                yield unsigned ? DataTypes.SMALLINT() : DataTypes.TINYINT();
            }
            case SMALLINT -> unsigned ? DataTypes.INT() : DataTypes.SMALLINT();
            case MEDIUMINT -> DataTypes.INT();
            case INT -> unsigned ? DataTypes.BIGINT() : DataTypes.INT();
            case BIGINT -> unsigned ? DataTypes.DECIMAL(20, 0) : DataTypes.BIGINT();
            case YEAR -> DataTypes.INT();
            case FLOAT -> DataTypes.FLOAT();
            case DOUBLE -> DataTypes.DOUBLE();
            case DECIMAL -> {
                int precision = length > 0 ? length : 10;
                int scale = Math.max(type.scale(), 0);
                yield precision > 38 ? DataTypes.STRING() : DataTypes.DECIMAL(precision, scale);
            }
            case CHAR -> length > 0 ? DataTypes.CHAR(length) : DataTypes.CHAR(1);
            case VARCHAR -> length > 0 ? DataTypes.VARCHAR(length) : DataTypes.STRING();
            case TEXT, ENUM, SET, JSON -> DataTypes.STRING();
            case BINARY -> length > 0 ? DataTypes.BINARY(length) : DataTypes.BINARY(1);
            case VARBINARY -> length > 0 ? DataTypes.VARBINARY(length) : DataTypes.BYTES();
            case BLOB, SPATIAL -> DataTypes.BYTES();
            case DATE -> DataTypes.DATE();
            case TIME -> DataTypes.TIME(Math.max(length, 0));
            case DATETIME -> DataTypes.TIMESTAMP(Math.max(length, 0));
            case TIMESTAMP -> DataTypes.TIMESTAMP_LTZ(Math.max(length, 0));
            case OTHER -> throw new IllegalArgumentException("Cannot map MySQL type " + type + " of column '" + column
                    + "' to a Flink type");
        };
    }
}
