package dev.streamhouse.storage.partition;

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.Decimal;
import dev.streamhouse.storage.data.Timestamp;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.DecimalType;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Locale;

/**
 * Converts the string form of a partition value, as SQL gives it in {@code PARTITION (k = 'v')}, to
 * the internal value of the partition column type.
 *
 * <p>Accepted forms: strings as they are; BOOLEAN {@code true}/{@code false} (any case); integers and
 * floating point numbers in Java syntax; DECIMAL as a plain or scientific number that fits the type
 * (rounded half-up to its scale); DATE as {@code yyyy-MM-dd} or as the day number since 1970-01-01
 * that legacy directory names show; TIME as {@code HH:mm[:ss[.fff]]} or milliseconds of the day;
 * TIMESTAMP as {@code yyyy-MM-dd HH:mm[:ss[.fffffffff]]} (a space or {@code T} between date and time)
 * or {@code yyyy-MM-dd}. TIMESTAMP WITH LOCAL TIME ZONE values are read in UTC.
 */
public final class PartitionValues {
    private PartitionValues() {}

    /**
     * @throws IllegalArgumentException saying what was expected if {@code text} does not fit the type
     */
    public static Object fromString(String text, DataType type) {
        String t = text.trim();
        try {
            switch (type.root()) {
                case CHAR:
                case VARCHAR:
                    return BinaryString.fromString(text);
                case BOOLEAN:
                    return parseBoolean(t);
                case TINYINT:
                    return Byte.parseByte(t);
                case SMALLINT:
                    return Short.parseShort(t);
                case INTEGER:
                    return Integer.parseInt(t);
                case BIGINT:
                    return Long.parseLong(t);
                case FLOAT:
                    return Float.parseFloat(t);
                case DOUBLE:
                    return Double.parseDouble(t);
                case DECIMAL:
                    return decimal(t, (DecimalType) type);
                case DATE:
                    return isInteger(t) ? Integer.parseInt(t) : (int) LocalDate.parse(t).toEpochDay();
                case TIME_WITHOUT_TIME_ZONE:
                    return isInteger(t) ? Integer.parseInt(t) : (int) (LocalTime.parse(t).toNanoOfDay() / 1_000_000);
                case TIMESTAMP_WITHOUT_TIME_ZONE:
                    return Timestamp.fromLocalDateTime(dateTime(t));
                case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                    return Timestamp.fromInstant(dateTime(t).toInstant(ZoneOffset.UTC));
                default:
                    throw new IllegalArgumentException("a column of type " + type.copy(true) + " cannot be a partition key");
            }
        } catch (NumberFormatException | DateTimeParseException e) {
            throw new IllegalArgumentException("expected " + expected(type), e);
        }
    }

    private static boolean parseBoolean(String t) {
        String lower = t.toLowerCase(Locale.ROOT);
        if (lower.equals("true")) {
            return true;
        }
        if (lower.equals("false")) {
            return false;
        }
        throw new IllegalArgumentException("expected true or false");
    }

    private static Decimal decimal(String t, DecimalType type) {
        Decimal d = Decimal.fromBigDecimal(new BigDecimal(t), type.precision(), type.scale());
        if (d == null) {
            throw new IllegalArgumentException("it does not fit " + type.copy(true));
        }
        return d;
    }

    private static LocalDateTime dateTime(String t) {
        if (t.length() == 10) {
            return LocalDate.parse(t).atStartOfDay();
        }
        return LocalDateTime.parse(t.replace(' ', 'T'));
    }

    private static boolean isInteger(String t) {
        return t.matches("-?\\d+");
    }

    private static String expected(DataType type) {
        switch (type.root()) {
            case DATE:
                return "a date like 2024-01-31 or a day number";
            case TIME_WITHOUT_TIME_ZONE:
                return "a time like 12:30:00";
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return "a timestamp like 2024-01-31 12:30:00";
            default:
                return "a number of type " + type.copy(true);
        }
    }
}
