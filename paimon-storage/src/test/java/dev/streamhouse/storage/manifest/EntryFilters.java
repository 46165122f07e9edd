package dev.streamhouse.storage.manifest;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.stats.SimpleStats;

import java.util.function.BiPredicate;

/** Entry filters for tests. */
final class EntryFilters {
    private EntryFilters() {}

    /** Entries {@code wanted} accepts; every range of entries may hold some. */
    static EntryFilter where(BiPredicate<BinaryRow, Integer> wanted) {
        return new EntryFilter() {
            @Override
            public boolean matches(BinaryRow partition, int bucket) {
                return wanted.test(partition, bucket);
            }

            @Override
            public boolean mayMatch(long count, SimpleStats partitionStats, Integer minBucket, Integer maxBucket) {
                return true;
            }
        };
    }
}
