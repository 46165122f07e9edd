package dev.streamhouse.flink.cdc.kafka.format;

import dev.streamhouse.flink.cdc.event.MySqlType;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.temporal.ChronoField;

/**
 * A MySQL value written as text, as Canal puts them into JSON ({@code "12"},
 * {@code "2024-01-02 10:15:30.5"}, {@code "-838:59:59"}), as the Java value {@link MySqlType}
 * documents for its column type. Binary values are text of ISO-8859-1 characters, one per byte, as
 * Canal writes them. A TIMESTAMP is read in the source server's time zone.
 */
final class TextValues {
    /** {@code yyyy-MM-dd HH:mm:ss} with optional fractional seconds (0 to 9 digits), also with a {@code T}. */
    private static final DateTimeFormatter DATE_TIME = new DateTimeFormatterBuilder()
            .append(DateTimeFormatter.ISO_LOCAL_DATE)
            .optionalStart().appendLiteral(' ').optionalEnd()
            .optionalStart().appendLiteral('T').optionalEnd()
            .appendPattern("HH:mm:ss")
            .optionalStart().appendFraction(ChronoField.NANO_OF_SECOND, 0, 9, true).optionalEnd()
            .toFormatter();

    private TextValues() {}

    /**
     * @throws IllegalArgumentException when the text is no value of the type (the message says which)
     */
    static Object parse(String text, MySqlType type, ZoneId serverZone) {
        if (text == null) {
            return null;
        }
        try {
            if (type.isSpatial()) {
                return text.getBytes(StandardCharsets.ISO_8859_1);
            }
            return switch (type.family()) {
                case BOOLEAN -> parseBoolean(text);
                case BIT -> type.length() <= 1 ? parseBoolean(text) : bits(text, (type.length() + 7) / 8);
                case TINYINT, SMALLINT, MEDIUMINT, INT, YEAR -> Long.parseLong(text.trim());
                case BIGINT -> type.unsigned() ? new BigDecimal(text.trim()) : (Object) Long.parseLong(text.trim());
                case DECIMAL -> new BigDecimal(text.trim());
                case FLOAT -> Float.parseFloat(text.trim());
                case DOUBLE -> Double.parseDouble(text.trim());
                case DATE -> LocalDate.parse(text.trim());
                case TIME -> MySqlType.parseTime(text.trim());
                case DATETIME -> LocalDateTime.parse(text.trim(), DATE_TIME);
                case TIMESTAMP -> LocalDateTime.parse(text.trim(), DATE_TIME).atZone(serverZone).toInstant();
                case BINARY, VARBINARY, BLOB, SPATIAL -> text.getBytes(StandardCharsets.ISO_8859_1);
                case CHAR, VARCHAR, TEXT, ENUM, SET, JSON, OTHER -> text;
            };
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("'" + text + "' is no " + type + " value (" + e.getMessage() + ")", e);
        }
    }

    private static Boolean parseBoolean(String text) {
        String t = text.trim();
        if (t.equals("1") || t.equalsIgnoreCase("true")) {
            return Boolean.TRUE;
        }
        if (t.equals("0") || t.equalsIgnoreCase("false")) {
            return Boolean.FALSE;
        }
        throw new IllegalArgumentException("not a boolean");
    }

    /** BIT(n) as Canal writes it, the number in decimal; big-endian bytes of the column's width. */
    private static byte[] bits(String text, int width) {
        long value = Long.parseUnsignedLong(text.trim());
        byte[] bytes = new byte[width];
        for (int i = width - 1; i >= 0; i--) {
            bytes[i] = (byte) value;
            value >>>= 8;
        }
        return bytes;
    }
}
