package dev.streamhouse.storage.manifest;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.stats.SimpleStats;

/**
 * Which entries of a manifest a read wants, by partition and bucket. {@link #mayMatch} answers for a
 * range of entries described by statistics (a manifest, or one block of it, see {@link
 * ManifestBlockIndex}); it may keep ranges that hold nothing wanted but never drops one that does.
 */
public interface EntryFilter {
    /** Whether entries of this partition and bucket are wanted. */
    boolean matches(BinaryRow partition, int bucket);

    /**
     * Whether a range of {@code count} entries with these partition statistics and bucket bounds (null:
     * unknown) may hold a wanted one.
     */
    boolean mayMatch(long count, SimpleStats partitionStats, Integer minBucket, Integer maxBucket);

    /** Told how many entries a read passed over unread because their range cannot match. */
    default void skipped(long entries) {}
}
