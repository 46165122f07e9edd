package dev.streamhouse.flink.cdc.sync.columns;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Base64;

/**
 * A change record's value (as {@code MySqlType} documents the Java types) as the text Apache Paimon's
 * MySQL sync hands its computed columns: Paimon evaluates them on the string form of the Debezium
 * value, so the functions that read text ({@code substring}, {@code truncate} and {@code upper} /
 * {@code lower} / {@code trim} of strings, dates parsed from string columns) see:
 * <ul>
 *   <li>DATE as {@code yyyy-MM-dd};
 *   <li>DATETIME as {@code yyyy-MM-dd HH:mm:ss.SSS} up to 3 fractional digits declared, else with 6
 *       ({@code .SSSSSS}), and TIMESTAMP in the server time zone with 6, as Debezium's
 *       {@code Timestamp}, {@code MicroTimestamp} and {@code ZonedTimestamp} become text in Paimon;
 *   <li>TIME as {@link LocalTime#toString()} ({@code 10:15}, {@code 10:15:30.5}), wrapped into a day;
 *   <li>DECIMAL in plain notation, bytes in Base64, booleans as {@code true} / {@code false}, other
 *       numbers and strings as Java prints them.
 * </ul>
 */
final class SourceText {
    private static final DateTimeFormatter DATE_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss");
    private static final long NANOS_PER_DAY = 86_400_000_000_000L;

    private SourceText() {}

    /**
     * @param timestampDigits fractional digits of a DATETIME value's text (0, 3 or 6)
     * @param zone the zone TIMESTAMP (instant) values are shown in
     */
    static String of(Object value, int timestampDigits, ZoneId zone) {
        if (value instanceof String s) {
            return s;
        }
        if (value instanceof LocalDateTime t) {
            return dateTime(t, timestampDigits);
        }
        if (value instanceof Instant i) {
            return dateTime(LocalDateTime.ofInstant(i, zone), 6);
        }
        if (value instanceof LocalDate d) {
            return d.toString();
        }
        if (value instanceof Duration d) {
            return LocalTime.ofNanoOfDay(Math.floorMod(d.toNanos(), NANOS_PER_DAY)).toString();
        }
        if (value instanceof BigDecimal d) {
            return d.toPlainString();
        }
        if (value instanceof byte[] bytes) {
            return Base64.getEncoder().encodeToString(bytes);
        }
        return value.toString();
    }

    /** A date-time as {@code yyyy-MM-dd HH:mm:ss}, with {@code digits} fractional digits when above 0. */
    static String dateTime(LocalDateTime t, int digits) {
        StringBuilder s = new StringBuilder(DATE_TIME.format(t));
        if (digits > 0) {
            s.append('.').append(String.format("%09d", t.getNano()), 0, digits);
        }
        return s.toString();
    }

    /**
     * The value of an integer column: a number, or a boolean as 1 / 0.
     *
     * @throws ArithmeticException if a decimal value has a fraction or does not fit a long
     */
    static long longValue(Object value) {
        if (value instanceof BigDecimal d) {
            return d.longValueExact();
        }
        if (value instanceof Boolean b) {
            return b ? 1 : 0;
        }
        return ((Number) value).longValue();
    }
}
