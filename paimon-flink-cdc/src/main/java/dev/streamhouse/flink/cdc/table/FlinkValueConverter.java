package dev.streamhouse.flink.cdc.table;

import java.io.Serializable;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import org.apache.flink.table.data.DecimalData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.data.TimestampData;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;

/**
 * Converts a change record's Java value (see {@code MySqlType}) into Flink's internal value of a
 * declared column type. A value the declared type cannot hold fails naming the table and column.
 */
final class FlinkValueConverter implements Serializable {
    private static final long serialVersionUID = 1L;
    private static final long MILLIS_PER_DAY = 86_400_000L;

    private final LogicalType type;
    private final String column;

    FlinkValueConverter(LogicalType type, String column) {
        this.type = type;
        this.column = column;
    }

    Object convert(Object value, String table) {
        if (value == null) {
            return null;
        }
        switch (type.getTypeRoot()) {
            case BOOLEAN:
                return value instanceof Boolean b ? b : ((Number) value).longValue() != 0;
            case TINYINT:
                return ((Number) value).byteValue();
            case SMALLINT:
                return ((Number) value).shortValue();
            case INTEGER:
                return ((Number) value).intValue();
            case BIGINT:
                return ((Number) value).longValue();
            case FLOAT:
                return ((Number) value).floatValue();
            case DOUBLE:
                return ((Number) value).doubleValue();
            case DECIMAL: {
                DecimalType decimal = (DecimalType) type;
                BigDecimal big = value instanceof BigDecimal d ? d : new BigDecimal(value.toString());
                DecimalData data = DecimalData.fromBigDecimal(big, decimal.getPrecision(), decimal.getScale());
                if (data == null) {
                    throw fail(table, value, "does not fit " + type);
                }
                return data;
            }
            case CHAR:
            case VARCHAR:
                return StringData.fromString(value instanceof BigDecimal d ? d.toPlainString() : value.toString());
            case BINARY:
            case VARBINARY:
                if (value instanceof byte[] bytes) {
                    return bytes;
                }
                throw fail(table, value, "is not binary");
            case DATE:
                return (int) ((LocalDate) value).toEpochDay();
            case TIME_WITHOUT_TIME_ZONE: {
                long millis = ((Duration) value).toMillis();
                if (millis < 0 || millis >= MILLIS_PER_DAY) {
                    throw fail(table, value, "is outside Flink's TIME range 00:00:00 to 23:59:59.999");
                }
                return (int) millis;
            }
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                return TimestampData.fromLocalDateTime((LocalDateTime) value);
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return TimestampData.fromInstant((Instant) value);
            default:
                throw fail(table, value, "has no conversion to " + type);
        }
    }

    private IllegalStateException fail(String table, Object value, String why) {
        return new IllegalStateException("Cannot read column '" + column + "' of MySQL table " + table + " as "
                + type + ": value " + value + " " + why);
    }
}
