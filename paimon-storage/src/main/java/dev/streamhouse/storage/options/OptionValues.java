package dev.streamhouse.storage.options;

import java.time.Duration;

/**
 * Parses values in the forms options take, for engines that receive them elsewhere (e.g. procedure
 * arguments such as {@code time_retained => '1 h'} or {@code older_than => '2024-01-01 12:00:00'}).
 */
public final class OptionValues {
    private OptionValues() {}

    /**
     * A duration as Paimon writes one: {@code 1 h}, {@code 30min}, {@code 2 d}, {@code 500 ms}; a bare
     * number is milliseconds.
     *
     * @throws IllegalArgumentException if the text is not a duration
     */
    public static Duration duration(String text) {
        return DurationParser.parse(text);
    }

    /**
     * Epoch millis of a local date-time of this JVM's time zone: {@code yyyy-MM-dd HH:mm:ss[.SSS]} or
     * {@code yyyy-MM-dd}.
     *
     * @throws IllegalArgumentException if the text has another form
     */
    public static long localTimestampMillis(String text) {
        return LocalTimestamps.toEpochMillis(text);
    }
}
