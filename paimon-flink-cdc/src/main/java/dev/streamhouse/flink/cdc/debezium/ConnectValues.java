package dev.streamhouse.flink.cdc.debezium;

import dev.streamhouse.flink.cdc.event.MySqlType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;

/**
 * Turns Debezium's Kafka Connect values (with the engine settings {@code decimal.handling.mode=precise},
 * {@code bigint.unsigned.handling.mode=precise}, {@code binary.handling.mode=bytes} and
 * {@code time.precision.mode=adaptive_time_microseconds}) into the Java values {@link MySqlType}
 * documents, by the column's logical schema name and MySQL type.
 */
final class ConnectValues {

    private ConnectValues() {}

    static Object convert(Object value, Schema schema, MySqlType type, String column) {
        if (value == null) {
            return null;
        }
        String logical = schema.name();
        if (logical != null) {
            switch (logical) {
                case "io.debezium.time.Date":
                    return LocalDate.ofEpochDay(((Number) value).longValue());
                case "io.debezium.time.Time":
                    return Duration.ofMillis(((Number) value).longValue());
                case "io.debezium.time.MicroTime":
                    return Duration.ofNanos(((Number) value).longValue() * 1_000);
                case "io.debezium.time.NanoTime":
                    return Duration.ofNanos(((Number) value).longValue());
                case "io.debezium.time.Timestamp":
                    return LocalDateTime.ofInstant(Instant.ofEpochMilli(((Number) value).longValue()), ZoneOffset.UTC);
                case "io.debezium.time.MicroTimestamp":
                    return micros(((Number) value).longValue());
                case "io.debezium.time.NanoTimestamp":
                    long nanos = ((Number) value).longValue();
                    return LocalDateTime.ofEpochSecond(Math.floorDiv(nanos, 1_000_000_000L),
                            (int) Math.floorMod(nanos, 1_000_000_000L), ZoneOffset.UTC);
                case "io.debezium.time.ZonedTimestamp":
                    return OffsetDateTime.parse(value.toString()).toInstant();
                case "io.debezium.time.Year":
                    return ((Number) value).longValue();
                case "io.debezium.data.Bits":
                    return bits(bytes(value), type);
                case "org.apache.kafka.connect.data.Decimal":
                case "io.debezium.data.VariableScaleDecimal":
                    return decimal(value);
                case "io.debezium.data.geometry.Geometry":
                case "io.debezium.data.geometry.Point":
                    return bytes(((Struct) value).get("wkb"));
                default:
                    break;
            }
        }
        return plain(value, type, column);
    }

    private static Object plain(Object value, MySqlType type, String column) {
        if (value instanceof Boolean) {
            return value;
        }
        if (value instanceof byte[] || value instanceof ByteBuffer) {
            return bytes(value);
        }
        if (value instanceof String) {
            return value;
        }
        if (value instanceof BigDecimal decimal) {
            return decimal;
        }
        if (value instanceof Number number) {
            return switch (type.family()) {
                case FLOAT -> number.floatValue();
                case DOUBLE -> number.doubleValue();
                case BIGINT -> type.unsigned()
                        ? new BigDecimal(new BigInteger(Long.toUnsignedString(number.longValue())))
                        : number.longValue();
                case BOOLEAN, BIT, TINYINT, SMALLINT, MEDIUMINT, INT, YEAR, DECIMAL, CHAR, VARCHAR, TEXT, ENUM, SET,
                        JSON, BINARY, VARBINARY, BLOB, DATE, TIME, DATETIME, TIMESTAMP, SPATIAL, OTHER ->
                        number.longValue();
            };
        }
        throw new IllegalStateException("Cannot convert the value of column '" + column + "' (" + type
                + ") from Debezium's " + value.getClass().getName());
    }

    private static LocalDateTime micros(long micros) {
        return LocalDateTime.ofEpochSecond(Math.floorDiv(micros, 1_000_000L),
                (int) Math.floorMod(micros, 1_000_000L) * 1_000, ZoneOffset.UTC);
    }

    private static BigDecimal decimal(Object value) {
        if (value instanceof BigDecimal decimal) {
            return decimal;
        }
        if (value instanceof Struct struct) {
            // VariableScaleDecimal: scale and unscaled big-endian bytes
            return new BigDecimal(new BigInteger(bytes(struct.get("value"))), struct.getInt32("scale"));
        }
        return new BigDecimal(value.toString());
    }

    private static byte[] bytes(Object value) {
        if (value instanceof byte[] bytes) {
            return bytes;
        }
        ByteBuffer buffer = ((ByteBuffer) value).duplicate();
        byte[] bytes = new byte[buffer.remaining()];
        buffer.get(bytes);
        return bytes;
    }

    /** Debezium's BIT(n) bytes are little-endian; MySQL's (and ours) are big-endian, (n + 7) / 8 long. */
    private static byte[] bits(byte[] littleEndian, MySqlType type) {
        int size = type.length() > 0 ? (type.length() + 7) / 8 : littleEndian.length;
        byte[] bigEndian = new byte[size];
        for (int i = 0; i < littleEndian.length && i < size; i++) {
            bigEndian[size - 1 - i] = littleEndian[i];
        }
        return bigEndian;
    }
}
