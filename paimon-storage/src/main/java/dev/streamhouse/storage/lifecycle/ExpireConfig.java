package dev.streamhouse.storage.lifecycle;

import dev.streamhouse.storage.options.ConsumerOptions;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.options.SnapshotExpireOptions;

import java.time.Duration;

/**
 * Plain values one snapshot expiration run follows (Paimon's {@code snapshot.*} retention options).
 *
 * <p>A snapshot expires when it is older than {@code timeRetained} and more than {@code retainMin}
 * snapshots are newer or as new; it expires regardless of age when more than {@code retainMax} are
 * kept. At most {@code maxDeletes} snapshots expire per run.
 *
 * @param consumerExpiration consumers not updated for this long no longer protect snapshots; null:
 *     consumers never expire
 */
public record ExpireConfig(int retainMin, int retainMax, Duration timeRetained, int maxDeletes,
        boolean cleanEmptyDirectories, Duration consumerExpiration) {

    public ExpireConfig {
        if (retainMin < 1) {
            throw new IllegalArgumentException("Cannot expire snapshots keeping " + retainMin
                    + " snapshots: 'snapshot.num-retained.min' (retain_min) must be at least 1");
        }
        if (retainMax < retainMin) {
            throw new IllegalArgumentException("Cannot expire snapshots: the most snapshots to keep (" + retainMax
                    + ", 'snapshot.num-retained.max' / retain_max) is smaller than the fewest ("
                    + retainMin + ", 'snapshot.num-retained.min' / retain_min)");
        }
        if (maxDeletes < 1) {
            throw new IllegalArgumentException("Cannot expire snapshots with a limit of " + maxDeletes
                    + ": 'snapshot.expire.limit' (max_deletes) must be at least 1");
        }
        if (timeRetained.isNegative()) {
            throw new IllegalArgumentException("Cannot expire snapshots retained for " + timeRetained
                    + ": the retention time must not be negative (is 'older_than' in the future?)");
        }
    }

    /**
     * The table's retention options. A {@code snapshot.num-retained.max} below the default minimum
     * (10) with the minimum unset keeps at most that many: the minimum follows the maximum.
     */
    public static ExpireConfig from(Options options) {
        int max = options.get(SnapshotExpireOptions.SNAPSHOT_NUM_RETAINED_MAX);
        int min = options.get(SnapshotExpireOptions.SNAPSHOT_NUM_RETAINED_MIN);
        if (!options.contains(SnapshotExpireOptions.SNAPSHOT_NUM_RETAINED_MIN)) {
            min = Math.min(min, max);
        }
        return new ExpireConfig(
                min,
                max,
                options.get(SnapshotExpireOptions.SNAPSHOT_TIME_RETAINED),
                options.get(SnapshotExpireOptions.SNAPSHOT_EXPIRE_LIMIT),
                options.get(SnapshotExpireOptions.SNAPSHOT_CLEAN_EMPTY_DIRECTORIES),
                options.getOptional(ConsumerOptions.CONSUMER_EXPIRATION_TIME).orElse(null));
    }

    public ExpireConfig withRetainMin(int value) {
        return new ExpireConfig(value, retainMax, timeRetained, maxDeletes, cleanEmptyDirectories, consumerExpiration);
    }

    public ExpireConfig withRetainMax(int value) {
        return new ExpireConfig(retainMin, value, timeRetained, maxDeletes, cleanEmptyDirectories, consumerExpiration);
    }

    public ExpireConfig withTimeRetained(Duration value) {
        return new ExpireConfig(retainMin, retainMax, value, maxDeletes, cleanEmptyDirectories, consumerExpiration);
    }

    public ExpireConfig withMaxDeletes(int value) {
        return new ExpireConfig(retainMin, retainMax, timeRetained, value, cleanEmptyDirectories, consumerExpiration);
    }
}
