package dev.streamhouse.storage.partition;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.format.ResolverStyle;
import java.time.format.SignStyle;
import java.time.temporal.ChronoField;
import java.util.List;
import java.util.Locale;

/**
 * Reads a time from a partition's values, as Apache Paimon's {@code partition.timestamp-pattern} and
 * {@code partition.timestamp-formatter} define it: the pattern joins partition values into a text
 * ({@code $key} stands for the value of partition key {@code key}, e.g. {@code '$dt $hour:00:00'}); no
 * pattern takes the first partition key's value. The formatter ({@link DateTimeFormatter} pattern, e.g.
 * {@code 'yyyyMMdd'}) reads the text as a date-time, or as a date at midnight when it has no time of
 * day; no formatter accepts {@code yyyy-M-d} optionally followed by {@code ' H:m:s[.fraction]'}.
 *
 * <p>Immutable and thread-safe. {@link #extract} throws {@link DateTimeParseException} when the text is
 * not a time in that form.
 */
public final class PartitionTimeExtractor {
    private static final DateTimeFormatter DEFAULT_DATE_TIME = new DateTimeFormatterBuilder()
            .appendValue(ChronoField.YEAR, 1, 10, SignStyle.NORMAL).appendLiteral('-')
            .appendValue(ChronoField.MONTH_OF_YEAR, 1, 2, SignStyle.NORMAL).appendLiteral('-')
            .appendValue(ChronoField.DAY_OF_MONTH, 1, 2, SignStyle.NORMAL)
            .optionalStart().appendLiteral(" ")
            .appendValue(ChronoField.HOUR_OF_DAY, 1, 2, SignStyle.NORMAL).appendLiteral(':')
            .appendValue(ChronoField.MINUTE_OF_HOUR, 1, 2, SignStyle.NORMAL).appendLiteral(':')
            .appendValue(ChronoField.SECOND_OF_MINUTE, 1, 2, SignStyle.NORMAL)
            .optionalStart().appendFraction(ChronoField.NANO_OF_SECOND, 1, 9, true).optionalEnd()
            .optionalEnd()
            .toFormatter().withResolverStyle(ResolverStyle.LENIENT);

    private static final DateTimeFormatter DEFAULT_DATE = new DateTimeFormatterBuilder()
            .appendValue(ChronoField.YEAR, 1, 10, SignStyle.NORMAL).appendLiteral('-')
            .appendValue(ChronoField.MONTH_OF_YEAR, 1, 2, SignStyle.NORMAL).appendLiteral('-')
            .appendValue(ChronoField.DAY_OF_MONTH, 1, 2, SignStyle.NORMAL)
            .toFormatter().withResolverStyle(ResolverStyle.LENIENT);

    private final String pattern;
    private final DateTimeFormatter formatter;

    /**
     * @param pattern {@code partition.timestamp-pattern}, or null for the first partition key's value
     * @param formatter {@code partition.timestamp-formatter}, or null for the default form
     * @throws IllegalArgumentException if {@code formatter} is not a valid {@link DateTimeFormatter} pattern
     */
    public PartitionTimeExtractor(String pattern, String formatter) {
        this.pattern = pattern;
        try {
            this.formatter = formatter == null ? null : DateTimeFormatter.ofPattern(formatter, Locale.ROOT);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("Cannot use 'partition.timestamp-formatter' = '" + formatter
                    + "': " + e.getMessage(), e);
        }
    }

    /** The time of the partition with these values ({@code keys[i]} has value {@code values[i]}). */
    public LocalDateTime extract(List<String> keys, List<String> values) {
        String text;
        if (pattern == null) {
            text = values.get(0);
        } else {
            text = pattern;
            for (int i = 0; i < keys.size(); i++) {
                text = text.replace("$" + keys.get(i), values.get(i));
            }
        }
        return parse(text);
    }

    private LocalDateTime parse(String text) {
        if (formatter == null) {
            try {
                return LocalDateTime.parse(text, DEFAULT_DATE_TIME);
            } catch (DateTimeParseException e) {
                return LocalDateTime.of(LocalDate.parse(text, DEFAULT_DATE), LocalTime.MIDNIGHT);
            }
        }
        try {
            return LocalDateTime.parse(text, formatter);
        } catch (DateTimeParseException e) {
            return LocalDateTime.of(LocalDate.parse(text, formatter), LocalTime.MIDNIGHT);
        }
    }
}
