package dev.streamhouse.storage.maintenance.expire;

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
 * <p>Long-lived changelog ({@code changelog.*}, each defaulting to its {@code snapshot.*} twin): the
 * changelog of a snapshot is counted and aged like a snapshot (counting the snapshots too, as Paimon
 * does). When any changelog retention exceeds its snapshot twin the changelog is <em>decoupled</em>:
 * an expiring snapshot leaves its changelog behind as {@code changelog/changelog-<id>}, which changelog
 * expiration removes later (at most {@code maxDeletes} per run too).
 *
 * @param consumerExpiration consumers not updated for this long no longer protect snapshots; null:
 *     consumers never expire
 */
public record ExpireConfig(int retainMin, int retainMax, Duration timeRetained, int maxDeletes,
        boolean cleanEmptyDirectories, Duration consumerExpiration, int changelogRetainMin,
        int changelogRetainMax, Duration changelogTimeRetained) {

    /** Changelog retained exactly as long as snapshots (not decoupled). */
    public ExpireConfig(int retainMin, int retainMax, Duration timeRetained, int maxDeletes,
            boolean cleanEmptyDirectories, Duration consumerExpiration) {
        this(retainMin, retainMax, timeRetained, maxDeletes, cleanEmptyDirectories, consumerExpiration,
                retainMin, retainMax, timeRetained);
    }

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
        if (changelogRetainMin < 1) {
            throw new IllegalArgumentException("Cannot expire changelogs keeping " + changelogRetainMin
                    + " changelogs: 'changelog.num-retained.min' (retain_min) must be at least 1");
        }
        if (changelogRetainMax < changelogRetainMin) {
            throw new IllegalArgumentException("Cannot expire changelogs: the most changelogs to keep ("
                    + changelogRetainMax + ", 'changelog.num-retained.max' / retain_max) is smaller than the fewest ("
                    + changelogRetainMin + ", 'changelog.num-retained.min' / retain_min)");
        }
        if (changelogTimeRetained.isNegative()) {
            throw new IllegalArgumentException("Cannot expire changelogs retained for " + changelogTimeRetained
                    + ": the retention time must not be negative (is 'older_than' in the future?)");
        }
    }

    /**
     * The table's retention options. A {@code snapshot.num-retained.max} below the default minimum
     * (10) with the minimum unset keeps at most that many: the minimum follows the maximum (so do the
     * {@code changelog.*} twins, which default to the snapshot values).
     */
    public static ExpireConfig from(Options options) {
        int max = options.get(SnapshotExpireOptions.SNAPSHOT_NUM_RETAINED_MAX);
        int min = options.get(SnapshotExpireOptions.SNAPSHOT_NUM_RETAINED_MIN);
        if (!options.contains(SnapshotExpireOptions.SNAPSHOT_NUM_RETAINED_MIN)) {
            min = Math.min(min, max);
        }
        Duration time = options.get(SnapshotExpireOptions.SNAPSHOT_TIME_RETAINED);
        int changelogMax = options.getOptional(SnapshotExpireOptions.CHANGELOG_NUM_RETAINED_MAX).orElse(max);
        int changelogMin = options.getOptional(SnapshotExpireOptions.CHANGELOG_NUM_RETAINED_MIN)
                .orElse(Math.min(min, changelogMax));
        return new ExpireConfig(
                min,
                max,
                time,
                options.get(SnapshotExpireOptions.SNAPSHOT_EXPIRE_LIMIT),
                options.get(SnapshotExpireOptions.SNAPSHOT_CLEAN_EMPTY_DIRECTORIES),
                options.getOptional(ConsumerOptions.CONSUMER_EXPIRATION_TIME).orElse(null),
                changelogMin,
                changelogMax,
                options.getOptional(SnapshotExpireOptions.CHANGELOG_TIME_RETAINED).orElse(time));
    }

    /**
     * Whether changelogs outlive their snapshots (Paimon's rule: a changelog retention exceeds its
     * snapshot twin).
     */
    public boolean changelogDecoupled() {
        return changelogRetainMax > retainMax || changelogRetainMin > retainMin
                || changelogTimeRetained.compareTo(timeRetained) > 0;
    }

    /* The snapshot setters below move a changelog retention that follows its snapshot twin along. */

    public ExpireConfig withRetainMin(int value) {
        return new ExpireConfig(value, retainMax, timeRetained, maxDeletes, cleanEmptyDirectories, consumerExpiration,
                changelogRetainMin == retainMin ? value : changelogRetainMin, changelogRetainMax, changelogTimeRetained);
    }

    public ExpireConfig withRetainMax(int value) {
        return new ExpireConfig(retainMin, value, timeRetained, maxDeletes, cleanEmptyDirectories, consumerExpiration,
                changelogRetainMin, changelogRetainMax == retainMax ? value : changelogRetainMax, changelogTimeRetained);
    }

    public ExpireConfig withTimeRetained(Duration value) {
        return new ExpireConfig(retainMin, retainMax, value, maxDeletes, cleanEmptyDirectories, consumerExpiration,
                changelogRetainMin, changelogRetainMax,
                changelogTimeRetained.equals(timeRetained) ? value : changelogTimeRetained);
    }

    public ExpireConfig withMaxDeletes(int value) {
        return new ExpireConfig(retainMin, retainMax, timeRetained, value, cleanEmptyDirectories, consumerExpiration,
                changelogRetainMin, changelogRetainMax, changelogTimeRetained);
    }

    /** This config with the changelog retention replaced (for {@code expire_changelogs}). */
    public ExpireConfig withChangelogRetention(int min, int max, Duration time, int changelogMaxDeletes) {
        return new ExpireConfig(retainMin, retainMax, timeRetained, changelogMaxDeletes, cleanEmptyDirectories,
                consumerExpiration, min, max, time);
    }
}
