package dev.streamhouse.storage.maintenance.optimize;

import java.util.Locale;

/** How much {@link TableOptimizer} does; each level does everything the previous one does. */
public enum OptimizeLevel {
    /**
     * Minor compaction of the buckets whose level-0 files reached the compaction trigger (append tables:
     * whose small files reached {@code compaction.min.file-num}), then snapshot expiration by the table's
     * retention options.
     */
    LIGHT,
    /**
     * Also full compaction of every bucket with any finding a compaction fixes (too many sorted runs,
     * size amplification, small files, deleted-row fragmentation, large level-0 files, skew or overflow
     * from versions not compacted away).
     */
    MODERATE,
    /** Full compaction of every bucket, snapshot expiration, then removal of orphan files older than a day. */
    FULL;

    /** {@code 'light'}, {@code 'moderate'} or {@code 'full'}, any case. */
    public static OptimizeLevel parse(String text) {
        try {
            return valueOf(text.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new IllegalArgumentException("Cannot optimize: unknown level '" + text
                    + "'; expected 'light', 'moderate' or 'full'", e);
        }
    }
}
