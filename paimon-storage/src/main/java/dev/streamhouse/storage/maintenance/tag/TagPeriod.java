package dev.streamhouse.storage.maintenance.tag;

import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.ResolverStyle;
import java.time.temporal.ChronoField;
import java.util.Locale;
import java.util.Objects;

/**
 * The period of automatic tags ({@code tag.creation-period} or {@code tag.creation-period-duration})
 * and how a period's start time is named ({@code tag.period-formatter}), with Apache Paimon 1.3.1's
 * rules:
 *
 * <ul>
 *   <li>daily: {@code yyyy-MM-dd} ({@code with_dashes}) or {@code yyyyMMdd} (both other formatters);
 *       any name whose part before the first space parses that way counts as an automatic tag;
 *   <li>hourly: {@code yyyy-MM-dd HH}, {@code yyyyMMdd HH} or {@code yyyyMMddHH};
 *   <li>two-hours: always {@code yyyy-MM-dd HH};
 *   <li>a {@code tag.creation-period-duration} (replaces the period): always {@code yyyyMMddHHmm}.
 * </ul>
 * Periods are aligned to multiples of their length counted from 1970-01-01 00:00 in local time.
 * Immutable.
 */
public final class TagPeriod {
    private static final DateTimeFormatter DAY = new DateTimeFormatterBuilder()
            .appendValue(ChronoField.YEAR, 4).appendLiteral('-').appendValue(ChronoField.MONTH_OF_YEAR, 2)
            .appendLiteral('-').appendValue(ChronoField.DAY_OF_MONTH, 2).toFormatter().withResolverStyle(ResolverStyle.STRICT);
    private static final DateTimeFormatter DAY_NO_DASHES = new DateTimeFormatterBuilder()
            .appendValue(ChronoField.YEAR, 4).appendValue(ChronoField.MONTH_OF_YEAR, 2)
            .appendValue(ChronoField.DAY_OF_MONTH, 2).toFormatter().withResolverStyle(ResolverStyle.STRICT);
    private static final DateTimeFormatter HOUR = hour(true, " ");
    private static final DateTimeFormatter HOUR_NO_DASHES = hour(false, " ");
    private static final DateTimeFormatter HOUR_NO_DASHES_NO_SPACES = hour(false, "");
    private static final DateTimeFormatter MINUTE = new DateTimeFormatterBuilder()
            .appendValue(ChronoField.YEAR, 4).appendValue(ChronoField.MONTH_OF_YEAR, 2)
            .appendValue(ChronoField.DAY_OF_MONTH, 2).appendValue(ChronoField.HOUR_OF_DAY, 2)
            .appendValue(ChronoField.MINUTE_OF_HOUR, 2).toFormatter().withResolverStyle(ResolverStyle.STRICT);

    private final Duration length;
    private final DateTimeFormatter formatter;
    private final boolean daily;

    private TagPeriod(Duration length, DateTimeFormatter formatter, boolean daily) {
        this.length = length;
        this.formatter = formatter;
        this.daily = daily;
    }

    private static DateTimeFormatter hour(boolean dashes, String space) {
        DateTimeFormatterBuilder b = new DateTimeFormatterBuilder().appendValue(ChronoField.YEAR, 4);
        if (dashes) {
            b.appendLiteral('-');
        }
        b.appendValue(ChronoField.MONTH_OF_YEAR, 2);
        if (dashes) {
            b.appendLiteral('-');
        }
        return b.appendValue(ChronoField.DAY_OF_MONTH, 2).appendLiteral(space).appendValue(ChronoField.HOUR_OF_DAY, 2)
                .toFormatter().withResolverStyle(ResolverStyle.STRICT);
    }

    /**
     * The period of these option values.
     *
     * @param period {@code daily}, {@code hourly} or {@code two-hours}
     * @param formatter {@code with_dashes}, {@code without_dashes} or {@code without_dashes_and_spaces}
     * @param periodDuration replaces {@code period} when not null; must be positive
     * @throws IllegalArgumentException for another value
     */
    public static TagPeriod of(String period, String formatter, Duration periodDuration) {
        if (periodDuration != null) {
            if (periodDuration.isNegative() || periodDuration.isZero()) {
                throw new IllegalArgumentException("Cannot create automatic tags with 'tag.creation-period-duration' = "
                        + periodDuration + ": it must be positive");
            }
            return new TagPeriod(periodDuration, MINUTE, false);
        }
        String f = formatter.trim().toLowerCase(Locale.ROOT);
        if (!f.equals("with_dashes") && !f.equals("without_dashes") && !f.equals("without_dashes_and_spaces")) {
            throw new IllegalArgumentException("Cannot create automatic tags with 'tag.period-formatter' = '" + formatter
                    + "': expected with_dashes, without_dashes or without_dashes_and_spaces");
        }
        switch (period.trim().toLowerCase(Locale.ROOT)) {
            case "daily":
                return new TagPeriod(Duration.ofDays(1), f.equals("with_dashes") ? DAY : DAY_NO_DASHES, true);
            case "hourly":
                return new TagPeriod(Duration.ofHours(1), f.equals("with_dashes") ? HOUR
                        : f.equals("without_dashes") ? HOUR_NO_DASHES : HOUR_NO_DASHES_NO_SPACES, false);
            case "two-hours":
                return new TagPeriod(Duration.ofHours(2), HOUR, false);
            default:
                throw new IllegalArgumentException("Cannot create automatic tags with 'tag.creation-period' = '" + period
                        + "': expected daily, hourly or two-hours");
        }
    }

    public Duration length() {
        return length;
    }

    /**
     * @throws IllegalArgumentException unless {@code delay} is shorter than the period (as Paimon requires)
     */
    public void checkDelay(Duration delay) {
        if (length.compareTo(delay) <= 0) {
            throw new IllegalArgumentException("Cannot create automatic tags with 'tag.creation-delay' = " + delay
                    + ": it must be shorter than the tag period " + length);
        }
    }

    /** The start of the period before the one {@code time} is in. */
    public LocalDateTime previousPeriodStart(LocalDateTime time) {
        long millis = time.toInstant(ZoneOffset.UTC).toEpochMilli();
        long periodMillis = length.toMillis();
        // Truncating division, as Paimon computes it.
        long startMillis = (millis / periodMillis) * periodMillis;
        return LocalDateTime.ofInstant(java.time.Instant.ofEpochMilli(startMillis), ZoneOffset.UTC).minus(length);
    }

    public LocalDateTime next(LocalDateTime periodStart) {
        return periodStart.plus(length);
    }

    /** The tag name of the period starting at {@code periodStart}. */
    public String tagName(LocalDateTime periodStart) {
        return periodStart.format(formatter);
    }

    /**
     * The period start an automatic tag's name stands for.
     *
     * @throws java.time.format.DateTimeParseException if {@code name} is not such a name
     */
    public LocalDateTime periodStart(String name) {
        if (daily) {
            return LocalDate.parse(name.split(" ")[0], formatter).atStartOfDay();
        }
        return LocalDateTime.parse(name, formatter);
    }

    /** Whether {@code name} is the name of an automatic tag of this period (Paimon: it parses). */
    public boolean isAutoTag(String name) {
        Objects.requireNonNull(name, "name");
        try {
            periodStart(name);
            return true;
        } catch (RuntimeException e) {
            return false;
        }
    }
}
