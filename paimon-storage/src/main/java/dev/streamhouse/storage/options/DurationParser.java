package dev.streamhouse.storage.options;

import java.time.Duration;
import java.util.Locale;

/** Parses durations such as {@code 10 s}, {@code 1 h}, {@code 500ms}, {@code 7 d} or plain millis. */
final class DurationParser {
    private DurationParser() {}

    /** Formats in the largest unit that is exact (d, h, min, s, ms); sub-millisecond parts are dropped. */
    static String format(Duration duration) {
        long millis = duration.toMillis();
        long[] unitMillis = {86_400_000L, 3_600_000L, 60_000L, 1_000L};
        String[] unitNames = {"d", "h", "min", "s"};
        for (int i = 0; i < unitMillis.length; i++) {
            if (millis != 0 && millis % unitMillis[i] == 0) {
                return millis / unitMillis[i] + " " + unitNames[i];
            }
        }
        return millis + " ms";
    }

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
