package dev.streamhouse.flink.cdc.sync;

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.Decimal;
import dev.streamhouse.storage.data.Timestamp;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.DecimalType;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.Base64;

/**
 * Turns a change record's Java value (as {@code MySqlType} documents them) into the table's internal
 * value of a column type: numbers narrowed or widened to the column's type (after schema evolution a
 * column may be wider than the value's source type), strings, bytes, dates, times and timestamps in
 * their internal forms, and any value as its text when the column is a string (Paimon's
 * {@code to-string} mapping). A value the column cannot hold fails naming table, column and value.
 */
final class TableValues {
    private static final long MILLIS_PER_DAY = 86_400_000L;

    private TableValues() {}

    static Object convert(Object value, DataType type, String table, String column) {
        if (value == null) {
            return null;
        }
        try {
            switch (type.root()) {
                case BOOLEAN:
                    return value instanceof Boolean b ? b : ((Number) value).longValue() != 0;
                case TINYINT:
                    return (byte) exactLong(value, Byte.MIN_VALUE, Byte.MAX_VALUE);
                case SMALLINT:
                    return (short) exactLong(value, Short.MIN_VALUE, Short.MAX_VALUE);
                case INTEGER:
                    return (int) exactLong(value, Integer.MIN_VALUE, Integer.MAX_VALUE);
                case BIGINT:
                    return exactLong(value, Long.MIN_VALUE, Long.MAX_VALUE);
                case FLOAT:
                    return ((Number) value).floatValue();
                case DOUBLE:
                    return ((Number) value).doubleValue();
                case DECIMAL: {
                    DecimalType d = (DecimalType) type;
                    BigDecimal big = value instanceof BigDecimal b ? b
                            : value instanceof Number n && !(value instanceof Double || value instanceof Float)
                                    ? BigDecimal.valueOf(n.longValue()) : new BigDecimal(value.toString());
                    Decimal decimal = Decimal.fromBigDecimal(big, d.precision(), d.scale());
                    if (decimal == null) {
                        throw new IllegalArgumentException("it does not fit " + type.asSQLString());
                    }
                    return decimal;
                }
                case CHAR:
                case VARCHAR:
                    return BinaryString.fromString(text(value));
                case BINARY:
                case VARBINARY:
                    if (value instanceof byte[] bytes) {
                        return bytes;
                    }
                    return text(value).getBytes(StandardCharsets.UTF_8);
                case DATE:
                    return (int) ((LocalDate) value).toEpochDay();
                case TIME_WITHOUT_TIME_ZONE: {
                    long millis = ((Duration) value).toMillis();
                    if (millis < 0 || millis >= MILLIS_PER_DAY) {
                        throw new IllegalArgumentException("it is outside the TIME range 00:00:00 to 23:59:59.999; "
                                + "map the column to STRING (--type_mapping to-string)");
                    }
                    return (int) millis;
                }
                case TIMESTAMP_WITHOUT_TIME_ZONE:
                    return Timestamp.fromLocalDateTime((LocalDateTime) value);
                case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                    return Timestamp.fromInstant((Instant) value);
                default:
                    throw new IllegalArgumentException("columns of type " + type.asSQLString() + " are not synced");
            }
        } catch (ClassCastException | ArithmeticException | IllegalArgumentException e) {
            throw new IllegalArgumentException("Cannot write value " + show(value) + " (" + value.getClass().getSimpleName()
                    + ") to column '" + column + "' " + type.asSQLString() + " of table " + table + ": "
                    + e.getMessage(), e);
        }
    }

    private static long exactLong(Object value, long min, long max) {
        long v;
        if (value instanceof BigDecimal big) {
            v = big.longValueExact();
        } else if (value instanceof Boolean b) {
            v = b ? 1 : 0;
        } else {
            v = ((Number) value).longValue();
        }
        if (v < min || v > max) {
            throw new ArithmeticException("it is outside the column's range " + min + " to " + max);
        }
        return v;
    }

    /** A value as text in a string column (Paimon's to-string and non-string-to-string mappings). */
    private static String text(Object value) {
        if (value instanceof BigDecimal d) {
            return d.toPlainString();
        }
        if (value instanceof byte[] bytes) {
            return Base64.getEncoder().encodeToString(bytes);
        }
        if (value instanceof Duration d) {
            return time(d);
        }
        return value.toString();
    }

    /** A MySQL TIME as MySQL shows it, {@code [-]HH:mm:ss[.fraction]} (hours may exceed 23). */
    private static String time(Duration d) {
        boolean negative = d.isNegative();
        Duration abs = d.abs();
        long seconds = abs.getSeconds();
        StringBuilder s = new StringBuilder(negative ? "-" : "");
        s.append(String.format("%02d:%02d:%02d", seconds / 3600, (seconds / 60) % 60, seconds % 60));
        if (abs.getNano() != 0) {
            String nanos = String.format("%09d", abs.getNano());
            s.append('.').append(nanos.replaceAll("0+$", ""));
        }
        return s.toString();
    }

    private static String show(Object value) {
        String s = value instanceof byte[] b ? b.length + " bytes" : String.valueOf(value);
        return s.length() > 60 ? s.substring(0, 60) + "..." : s;
    }
}
