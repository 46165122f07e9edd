package dev.streamhouse.storage.options;

import java.time.Duration;
import java.util.Locale;

/** Parses durations such as {@code 10 s}, {@code 1 h}, {@code 500ms}, {@code 7 d} or plain millis. */
final class DurationParser {
    private DurationParser() {}

    static Duration parse(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        int i = 0;
        while (i < t.length() && Character.isDigit(t.charAt(i))) {
            i++;
        }
        if (i == 0) {
            throw new IllegalArgumentException("Cannot parse duration '" + text + "': it must start with a number");
        }
        long n = Long.parseLong(t.substring(0, i));
        String unit = t.substring(i).trim();
        switch (unit) {
            case "":
            case "ms":
            case "milli":
            case "millis":
            case "millisecond":
            case "milliseconds":
                return Duration.ofMillis(n);
            case "s":
            case "sec":
            case "secs":
            case "second":
            case "seconds":
                return Duration.ofSeconds(n);
            case "min":
            case "m":
            case "minute":
            case "minutes":
                return Duration.ofMinutes(n);
            case "h":
            case "hour":
            case "hours":
                return Duration.ofHours(n);
            case "d":
            case "day":
            case "days":
                return Duration.ofDays(n);
            default:
                throw new IllegalArgumentException(
                        "Cannot parse duration '" + text + "': unknown unit '" + unit + "' (use ms, s, min, h, d)");
        }
    }
}
