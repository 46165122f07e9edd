package dev.streamhouse.storage.format;

/**
 * Statistics of one column of one data file: min and max as internal values (null if unknown or all
 * null) and the null count (null if unknown). Produced by format writers before any truncation.
 */
public record FieldStats(Object min, Object max, Long nullCount) {
    public static final FieldStats UNKNOWN = new FieldStats(null, null, null);
}
