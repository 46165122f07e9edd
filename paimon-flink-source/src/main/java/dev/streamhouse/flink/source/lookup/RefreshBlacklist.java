package dev.streamhouse.flink.source.lookup;

import java.io.Serializable;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;

/**
 * Option {@code lookup.refresh.time-periods-blacklist}: periods {@code start->end} (comma-separated,
 * times {@code yyyy-MM-dd HH:mm} in the JVM's time zone, start inclusive, end exclusive) in which a
 * lookup cache is not refreshed. Immutable.
 */
final class RefreshBlacklist implements Serializable {
    private static final long serialVersionUID = 1L;
    private static final DateTimeFormatter FORMAT = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm");

    /** Start and end of each period in epoch millis. */
    private final long[][] periods;

    private RefreshBlacklist(long[][] periods) {
        this.periods = periods;
    }

    static final RefreshBlacklist NONE = new RefreshBlacklist(new long[0][]);

    /**
     * Parses the option value (null or blank: no periods).
     *
     * @throws IllegalArgumentException naming the period that is malformed or ends before it starts
     */
    static RefreshBlacklist parse(String value) {
        if (value == null || value.isBlank()) {
            return NONE;
        }
        List<long[]> periods = new ArrayList<>();
        for (String period : value.split(",")) {
            String[] ends = period.split("->");
            if (ends.length != 2) {
                throw new IllegalArgumentException("period '" + period.trim() + "' is not 'yyyy-MM-dd HH:mm->yyyy-MM-dd HH:mm'");
            }
            long start = millis(ends[0], period);
            long end = millis(ends[1], period);
            if (end <= start) {
                throw new IllegalArgumentException("period '" + period.trim() + "' ends before it starts");
            }
            periods.add(new long[] {start, end});
        }
        return new RefreshBlacklist(periods.toArray(new long[0][]));
    }

    private static long millis(String time, String period) {
        try {
            return LocalDateTime.parse(time.trim(), FORMAT).atZone(ZoneId.systemDefault()).toInstant().toEpochMilli();
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("period '" + period.trim() + "': '" + time.trim()
                    + "' is not a time 'yyyy-MM-dd HH:mm'");
        }
    }

    /** Whether refreshing is forbidden at {@code nowMillis}. */
    boolean forbids(long nowMillis) {
        for (long[] p : periods) {
            if (nowMillis >= p[0] && nowMillis < p[1]) {
                return true;
            }
        }
        return false;
    }

    /** The end of the period that forbids refreshing at {@code nowMillis}, or {@code nowMillis}. */
    long allowedFrom(long nowMillis) {
        long at = nowMillis;
        boolean moved = true;
        while (moved) {
            moved = false;
            for (long[] p : periods) {
                if (at >= p[0] && at < p[1]) {
                    at = p[1];
                    moved = true;
                }
            }
        }
        return at;
    }
}
