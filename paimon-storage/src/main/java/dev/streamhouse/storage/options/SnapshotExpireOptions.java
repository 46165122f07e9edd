package dev.streamhouse.storage.options;

import java.time.Duration;

/**
 * Snapshot and changelog retention (Paimon's keys and defaults). Snapshots expire after each commit
 * (see {@code dev.streamhouse.storage.maintenance.expire.SnapshotExpiration}). When a {@code changelog.*}
 * retention exceeds its {@code snapshot.*} twin, an expiring snapshot leaves its changelog behind in
 * {@code changelog/} (docs/format.md §10.3), which changelog expiration removes after each commit.
 */
public final class SnapshotExpireOptions {
    private SnapshotExpireOptions() {}

    public static final ConfigOption<Integer> SNAPSHOT_NUM_RETAINED_MIN =
            ConfigOption.key("snapshot.num-retained.min").intType().defaultValue(10)
                    .withDescription("Fewest completed snapshots to keep.")
                    .checkedBy(OptionChecks.atLeast(1));

    public static final ConfigOption<Integer> SNAPSHOT_NUM_RETAINED_MAX =
            ConfigOption.key("snapshot.num-retained.max").intType().defaultValue(Integer.MAX_VALUE)
                    .withDescription("Most completed snapshots to keep; at least 'snapshot.num-retained.min'.")
                    .checkedBy(OptionChecks.atLeast(1));

    public static final ConfigOption<Duration> SNAPSHOT_TIME_RETAINED =
            ConfigOption.key("snapshot.time-retained").durationType().defaultValue(Duration.ofHours(1))
                    .withDescription("Longest time a completed snapshot is kept (beyond the minimum number).");

    public static final ConfigOption<Integer> CHANGELOG_NUM_RETAINED_MIN =
            ConfigOption.key("changelog.num-retained.min").intType().noDefaultValue()
                    .withDescription("Fewest changelogs to keep (counting the snapshots' own); defaults to "
                            + "'snapshot.num-retained.min'. Larger than that, expiring snapshots keep their changelog "
                            + "in changelog/ for streaming and incremental reads.").checkedBy(OptionChecks.atLeast(1));

    public static final ConfigOption<Integer> CHANGELOG_NUM_RETAINED_MAX =
            ConfigOption.key("changelog.num-retained.max").intType().noDefaultValue()
                    .withDescription("Most changelogs to keep (counting the snapshots' own); defaults to "
                            + "'snapshot.num-retained.max'. Larger than that, expiring snapshots keep their changelog "
                            + "in changelog/.").checkedBy(OptionChecks.atLeast(1));

    public static final ConfigOption<Duration> CHANGELOG_TIME_RETAINED =
            ConfigOption.key("changelog.time-retained").durationType().noDefaultValue()
                    .withDescription("Longest time a changelog is kept (beyond the minimum number); defaults to "
                            + "'snapshot.time-retained'. Longer than that, expiring snapshots keep their changelog in "
                            + "changelog/.");

    public static final ConfigOption<String> SNAPSHOT_EXPIRE_EXECUTION_MODE =
            ConfigOption.key("snapshot.expire.execution-mode").oneOf("sync", "async").defaultValue("sync")
                    .withDescription("Whether expiration runs inside the commit ('sync') or beside it ('async').");

    public static final ConfigOption<Integer> SNAPSHOT_EXPIRE_LIMIT =
            ConfigOption.key("snapshot.expire.limit").intType().defaultValue(50)
                    .withDescription("Most snapshots, and most changelogs, expired at a time.")
                    .checkedBy(OptionChecks.atLeast(1));

    public static final ConfigOption<Boolean> SNAPSHOT_CLEAN_EMPTY_DIRECTORIES =
            ConfigOption.key("snapshot.clean-empty-directories").booleanType().defaultValue(false)
                    .withDescription("Whether expiration also removes directories it leaves empty.")
                    .withFallbackKeys("snapshot.expire.clean-empty-directories");
}
