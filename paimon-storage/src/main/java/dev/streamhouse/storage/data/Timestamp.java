package dev.streamhouse.storage.data;

import java.io.Serializable;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;

/**
 * A timestamp as epoch milliseconds plus nanoseconds within the millisecond (0..999,999). For
 * TIMESTAMP (no zone) the epoch is the wall-clock value read as UTC; for TIMESTAMP_LTZ it is the
 * instant.
 */
public final class Timestamp implements Comparable<Timestamp>, Serializable {
    private static final long serialVersionUID = 1L;
    private static final long MILLIS_PER_DAY = 86_400_000L;

    private final long millisecond;
    private final int nanoOfMillisecond;

    private Timestamp(long millisecond, int nanoOfMillisecond) {
        if (nanoOfMillisecond < 0 || nanoOfMillisecond > 999_999) {
            throw new IllegalArgumentException("nanoOfMillisecond out of range: " + nanoOfMillisecond);
        }
        this.millisecond = millisecond;
        this.nanoOfMillisecond = nanoOfMillisecond;
    }

    public static Timestamp fromEpochMillis(long millis) {
        return new Timestamp(millis, 0);
    }

    public static Timestamp fromEpochMillis(long millis, int nanoOfMillisecond) {
        return new Timestamp(millis, nanoOfMillisecond);
    }

    public static Timestamp fromLocalDateTime(LocalDateTime dt) {
        long epochDay = dt.toLocalDate().toEpochDay();
        long nanoOfDay = dt.toLocalTime().toNanoOfDay();
        long millis = epochDay * MILLIS_PER_DAY + nanoOfDay / 1_000_000;
        return new Timestamp(millis, (int) (nanoOfDay % 1_000_000));
    }

    public static Timestamp fromInstant(Instant instant) {
        long seconds = instant.getEpochSecond();
        int nanos = instant.getNano();
        return new Timestamp(seconds * 1000 + nanos / 1_000_000, nanos % 1_000_000);
    }

    /** From epoch microseconds (Parquet TIMESTAMP(MICROS)). */
    public static Timestamp fromMicros(long micros) {
        long millis = Math.floorDiv(micros, 1000L);
        int nanos = (int) Math.floorMod(micros, 1000L) * 1000;
        return new Timestamp(millis, nanos);
    }

    public long millisecond() {
        return millisecond;
    }

    public int nanoOfMillisecond() {
        return nanoOfMillisecond;
    }

    public long toMicros() {
        return Math.multiplyExact(millisecond, 1000L) + nanoOfMillisecond / 1000;
    }

    public LocalDateTime toLocalDateTime() {
        long epochDay = Math.floorDiv(millisecond, MILLIS_PER_DAY);
        long millisOfDay = Math.floorMod(millisecond, MILLIS_PER_DAY);
        long nanoOfDay = millisOfDay * 1_000_000 + nanoOfMillisecond;
        return LocalDateTime.of(LocalDate.ofEpochDay(epochDay), LocalTime.ofNanoOfDay(nanoOfDay));
    }

    public Instant toInstant() {
        long seconds = Math.floorDiv(millisecond, 1000L);
        long nanos = Math.floorMod(millisecond, 1000L) * 1_000_000L + nanoOfMillisecond;
        return Instant.ofEpochSecond(seconds, nanos);
    }

    /** Drops precision beyond {@code precision} fractional digits (truncation, as the format does). */
    public Timestamp truncate(int precision) {
        if (precision >= 9) {
            return this;
        }
        long nanosTotal = Math.floorMod(millisecond, 1000L) * 1_000_000L + nanoOfMillisecond;
        long unit = (long) Math.pow(10, 9 - precision);
        long truncated = nanosTotal - nanosTotal % unit;
        long baseMillis = millisecond - Math.floorMod(millisecond, 1000L);
        return new Timestamp(baseMillis + truncated / 1_000_000, (int) (truncated % 1_000_000));
    }

    @Override
    public int compareTo(Timestamp o) {
        int c = Long.compare(millisecond, o.millisecond);
        return c != 0 ? c : Integer.compare(nanoOfMillisecond, o.nanoOfMillisecond);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Timestamp
                && ((Timestamp) o).millisecond == millisecond
                && ((Timestamp) o).nanoOfMillisecond == nanoOfMillisecond;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(millisecond) * 31 + nanoOfMillisecond;
    }

    @Override
    public String toString() {
        return toLocalDateTime().toString();
    }
}
