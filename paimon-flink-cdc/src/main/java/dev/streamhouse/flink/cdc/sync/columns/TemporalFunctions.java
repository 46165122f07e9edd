package dev.streamhouse.flink.cdc.sync.columns;

import dev.streamhouse.storage.types.DataTypes;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.YearMonth;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.function.Function;
import java.util.function.ToIntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Apache Paimon's temporal functions of computed columns: {@code year}, {@code month}, {@code day},
 * {@code hour}, {@code minute}, {@code second} (INT), {@code date_format(col, pattern)} (STRING, a
 * {@link DateTimeFormatter} pattern) and {@code now()} (TIMESTAMP(3), the local time of the JVM when the
 * row is written, as Paimon's).
 *
 * <p>They read the input column as a local date-time:
 * <ul>
 *   <li>DATE at midnight, TIMESTAMP as it is, TIMESTAMP_LTZ in the sync's time zone
 *       ({@code server-time-zone}, as Paimon shows MySQL TIMESTAMP values);
 *   <li>an integer column as an epoch number in UTC: seconds, or with the precision argument
 *       {@code 0}, {@code 3}, {@code 6}, {@code 9} seconds, milliseconds, microseconds, nanoseconds;
 *   <li>a string column as {@code yyyy-M-d[ H:m:s[.fffffffff]]} (or with {@code T} before the time),
 *       or, with a precision argument, as an epoch number.
 * </ul>
 * Other column types, and a precision argument for DATE and TIMESTAMP columns, are refused when the
 * column is bound (Paimon fails on the first value instead).
 */
final class TemporalFunctions {
    private static final List<Integer> PRECISIONS = List.of(0, 3, 6, 9);
    private static final Pattern DATE_TIME = Pattern.compile(
            "(\\d{4})-(\\d{1,2})-(\\d{1,2})(?:[ T](\\d{1,2}):(\\d{1,2}):(\\d{1,2})(?:\\.(\\d{0,9}))?)?");
    private static final LocalDateTime SAMPLE = LocalDateTime.of(2024, 1, 31, 12, 30, 45, 123_456_789);

    private TemporalFunctions() {}

    /** {@code year(col[, precision])} and the other parts: the INT the part takes from the date-time. */
    static Binding part(String function, ToIntFunction<LocalDateTime> part, InputColumn in, List<String> literals,
            ZoneId zone) {
        Function<Object, LocalDateTime> reader = reader(function, in, literals.isEmpty() ? null
                : precision(literals.get(0)), zone);
        return new Binding(DataTypes.INT(), v -> part.applyAsInt(reader.apply(v)));
    }

    /** {@code date_format(col, pattern[, precision])}: the date-time formatted, a STRING. */
    static Binding dateFormat(InputColumn in, List<String> literals, ZoneId zone) {
        DateTimeFormatter formatter = pattern(literals.get(0));
        Function<Object, LocalDateTime> reader = reader("date_format", in, literals.size() < 2 ? null
                : precision(literals.get(1)), zone);
        return new Binding(DataTypes.STRING(), v -> formatter.format(reader.apply(v)));
    }

    /** {@code now()}: the JVM's local time when the row is converted, to milliseconds. */
    static Binding now() {
        return new Binding(DataTypes.TIMESTAMP(3), v -> LocalDateTime.now().truncatedTo(ChronoUnit.MILLIS));
    }

    /**
     * The precision argument: 0, 3, 6 or 9.
     *
     * @throws IllegalArgumentException saying what a precision is
     */
    static int precision(String literal) {
        int p;
        try {
            p = Integer.parseInt(literal.trim());
        } catch (NumberFormatException e) {
            p = -1;
        }
        if (!PRECISIONS.contains(p)) {
            throw new IllegalArgumentException("the precision is 0 (epoch seconds), 3 (epoch milliseconds), "
                    + "6 (epoch microseconds) or 9 (epoch nanoseconds), not '" + literal + "'");
        }
        return p;
    }

    /**
     * The formatter of a {@code date_format} pattern.
     *
     * @throws IllegalArgumentException if the pattern is invalid or needs a time zone
     */
    static DateTimeFormatter pattern(String pattern) {
        try {
            DateTimeFormatter formatter = DateTimeFormatter.ofPattern(pattern);
            formatter.format(SAMPLE);
            return formatter;
        } catch (IllegalArgumentException | DateTimeException e) {
            throw new IllegalArgumentException("'" + pattern + "' is not a date format pattern of local date-times ("
                    + e.getMessage() + ")", e);
        }
    }

    /** How values of the input column become local date-times; refuses columns without one. */
    private static Function<Object, LocalDateTime> reader(String function, InputColumn in, Integer precision,
            ZoneId zone) {
        switch (in.type().root()) {
            case DATE:
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                if (precision != null) {
                    throw new IllegalArgumentException("the precision argument is for epoch numbers in integer or "
                            + "string columns, and column '" + in.name() + "' is " + in.type().asSQLString());
                }
                return v -> v instanceof Instant i ? LocalDateTime.ofInstant(i, zone)
                        : v instanceof LocalDate d ? d.atStartOfDay() : (LocalDateTime) v;
            case TINYINT:
            case SMALLINT:
            case INTEGER:
            case BIGINT: {
                int p = precision == null ? 0 : precision;
                return v -> epoch(SourceText.longValue(v), p);
            }
            case CHAR:
            case VARCHAR:
                if (precision != null) {
                    int p = precision;
                    return v -> epoch(epochNumber(SourceText.of(v, in.timestampDigits(), zone)), p);
                }
                return v -> parse(SourceText.of(v, in.timestampDigits(), zone));
            default:
                throw new IllegalArgumentException(function + "() reads a DATE, TIMESTAMP, TIMESTAMP_LTZ, string or "
                        + "integer (epoch) column, and column '" + in.name() + "' is " + in.type().asSQLString());
        }
    }

    /** An epoch number with {@code precision} fractional digits of a second, as a UTC date-time. */
    static LocalDateTime epoch(long n, int precision) {
        Instant instant;
        switch (precision) {
            case 0:
                instant = Instant.ofEpochSecond(n);
                break;
            case 3:
                instant = Instant.ofEpochMilli(n);
                break;
            case 6:
                instant = Instant.ofEpochSecond(Math.floorDiv(n, 1_000_000L), Math.floorMod(n, 1_000_000L) * 1000);
                break;
            default:
                instant = Instant.ofEpochSecond(Math.floorDiv(n, 1_000_000_000L), Math.floorMod(n, 1_000_000_000L));
        }
        return LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
    }

    private static long epochNumber(String text) {
        try {
            return Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' is not an epoch number", e);
        }
    }

    /**
     * A date or date-time as Paimon reads it from a string: {@code yyyy-M-d}, optionally followed by a
     * space (or {@code T}) and {@code H:m:s[.fffffffff]}; a day past the month's end is its last day and
     * {@code 24:00:00} the next midnight, as {@code java.time}'s smart resolution has it.
     *
     * @throws IllegalArgumentException if the text is no such date
     */
    static LocalDateTime parse(String text) {
        Matcher m = DATE_TIME.matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not a date or date-time (yyyy-MM-dd[ HH:mm:ss[.f]])");
        }
        int month = Integer.parseInt(m.group(2));
        int day = Integer.parseInt(m.group(3));
        if (month < 1 || month > 12 || day < 1 || day > 31) {
            throw new IllegalArgumentException("'" + text + "' has no month " + month + " or day " + day);
        }
        YearMonth yearMonth = YearMonth.of(Integer.parseInt(m.group(1)), month);
        LocalDate date = yearMonth.atDay(Math.min(day, yearMonth.lengthOfMonth()));
        if (m.group(4) == null) {
            return date.atStartOfDay();
        }
        int hour = Integer.parseInt(m.group(4));
        int minute = Integer.parseInt(m.group(5));
        int second = Integer.parseInt(m.group(6));
        String fraction = m.group(7) == null ? "" : m.group(7);
        int nanos = fraction.isEmpty() ? 0 : Integer.parseInt((fraction + "00000000").substring(0, 9));
        if (hour == 24 && minute == 0 && second == 0 && nanos == 0) {
            return date.plusDays(1).atStartOfDay();
        }
        if (hour > 23 || minute > 59 || second > 59) {
            throw new IllegalArgumentException("'" + text + "' is not a time of day");
        }
        return date.atTime(hour, minute, second, nanos);
    }
}
