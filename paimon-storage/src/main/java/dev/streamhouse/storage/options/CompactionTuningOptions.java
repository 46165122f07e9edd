package dev.streamhouse.storage.options;

import java.time.Duration;

/**
 * Paimon's further compaction and clustering knobs, beyond the universal compaction in
 * {@link MergeTreeOptions}. Compaction never changes the rows a query returns, so these are accepted
 * with a warning until they are implemented.
 */
public final class CompactionTuningOptions {
    private CompactionTuningOptions() {}

    private static final String NOT_YET = "this compaction policy is not implemented";

    public static final ConfigOption<Boolean> COMPACTION_FORCE_UP_LEVEL_0 =
            ConfigOption.key("compaction.force-up-level-0").booleanType().defaultValue(false)
                    .withDescription("Always include every level-0 file in a compaction.").noEffectYet(NOT_YET);

    public static final ConfigOption<Boolean> COMPACTION_FORCE_REWRITE_ALL_FILES =
            ConfigOption.key("compaction.force-rewrite-all-files").booleanType().defaultValue(false)
                    .withDescription("Rewrite every file in a full compaction.")
                    .noEffectYet("primary-key tables' full compactions still keep a bucket that is one sorted run on "
                            + "the last level (append tables' compactions honour it)");

    public static final ConfigOption<Integer> COMPACTION_OFFPEAK_START_HOUR =
            ConfigOption.key("compaction.offpeak.start.hour").intType().defaultValue(-1)
                    .withDescription("First hour (0-23) of off-peak time; -1 disables off-peak compaction.")
                    .checkedBy(OptionChecks.between(-1, 23)).noEffectYet(NOT_YET);

    public static final ConfigOption<Integer> COMPACTION_OFFPEAK_END_HOUR =
            ConfigOption.key("compaction.offpeak.end.hour").intType().defaultValue(-1)
                    .withDescription("Hour (0-23) at which off-peak time ends; -1 disables off-peak compaction.")
                    .checkedBy(OptionChecks.between(-1, 23)).noEffectYet(NOT_YET);

    public static final ConfigOption<Integer> COMPACTION_OFFPEAK_RATIO =
            ConfigOption.key("compaction.offpeak-ratio").intType().defaultValue(0)
                    .withDescription("Size ratio used instead of 'compaction.size-ratio' during off-peak hours.")
                    .checkedBy(OptionChecks.atLeast(0)).noEffectYet(NOT_YET);

    public static final ConfigOption<Duration> COMPACTION_OPTIMIZATION_INTERVAL =
            ConfigOption.key("compaction.optimization-interval").durationType().noDefaultValue()
                    .withDescription("Run a full compaction at least this often (keeps the read-optimized view "
                            + "fresh).").noEffectYet(NOT_YET);

    public static final ConfigOption<MemorySize> COMPACTION_TOTAL_SIZE_THRESHOLD =
            ConfigOption.key("compaction.total-size-threshold").memoryType().noDefaultValue()
                    .withDescription("Fully compact a bucket whose files together are smaller than this.")
                    .noEffectYet(NOT_YET);

    public static final ConfigOption<Integer> COMPACTION_MIN_FILE_NUM =
            ConfigOption.key("compaction.min.file-num").intType().defaultValue(5)
                    .withDescription("Append tables: files that trigger a compaction.")
                    .checkedBy(OptionChecks.atLeast(1));

    public static final ConfigOption<Double> COMPACTION_DELETE_RATIO_THRESHOLD =
            ConfigOption.key("compaction.delete-ratio-threshold").doubleType().defaultValue(0.2)
                    .withDescription("Append tables with deletion vectors: deleted share that forces compaction.")
                    .noEffectYet("deletion vectors of append tables are not supported yet");

    public static final ConfigOption<String> CLUSTERING_COLUMNS =
            ConfigOption.key("clustering.columns").stringType().noDefaultValue()
                    .withDescription("Columns by which written data is range-partitioned and sorted.")
                    .withFallbackKeys("sink.clustering.by-columns").noEffectYet("clustering is not implemented");

    public static final ConfigOption<String> CLUSTERING_STRATEGY =
            ConfigOption.key("clustering.strategy").stringType().defaultValue("auto")
                    .withDescription("Ordering used for clustering: auto, zorder, hilbert or order.")
                    .withFallbackKeys("sink.clustering.strategy").noEffectYet("clustering is not implemented");

    public static final ConfigOption<Boolean> CLUSTERING_INCREMENTAL =
            ConfigOption.key("clustering.incremental").booleanType().defaultValue(false)
                    .withDescription("Cluster incrementally.").noEffectYet("clustering is not implemented");

    public static final ConfigOption<Integer> CLUSTERING_HISTORY_PARTITION_LIMIT =
            ConfigOption.key("clustering.history-partition.limit").intType().defaultValue(5)
                    .withDescription("Most historical partitions fully clustered at a time.")
                    .noEffectYet("clustering is not implemented");

    public static final ConfigOption<Duration> CLUSTERING_HISTORY_PARTITION_IDLE_TO_FULL_SORT =
            ConfigOption.key("clustering.history-partition.idle-to-full-sort").durationType().noDefaultValue()
                    .withDescription("Idle time after which a partition counts as historical and is fully "
                            + "clustered.").noEffectYet("clustering is not implemented");

    public static final ConfigOption<Integer> ZORDER_VAR_LENGTH_CONTRIBUTION =
            ConfigOption.key("zorder.var-length-contribution").intType().defaultValue(8)
                    .withDescription("Bytes of variable-length columns used in z-order sorting.")
                    .noEffectYet("sort compaction is not implemented");

    public static final ConfigOption<String> SORT_COMPACTION_RANGE_STRATEGY =
            ConfigOption.key("sort-compaction.range-strategy").oneOf("SIZE", "QUANTITY").defaultValue("QUANTITY")
                    .withDescription("Whether sort compaction balances ranges by rows or by size.")
                    .noEffectYet("sort compaction is not implemented");

    public static final ConfigOption<Integer> SORT_COMPACTION_LOCAL_SAMPLE_MAGNIFICATION =
            ConfigOption.key("sort-compaction.local-sample.magnification").intType().defaultValue(1000)
                    .withDescription("Sample size of sort compaction per sink task.")
                    .noEffectYet("sort compaction is not implemented");
}
