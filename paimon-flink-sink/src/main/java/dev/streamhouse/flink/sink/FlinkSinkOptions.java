package dev.streamhouse.flink.sink;

import dev.streamhouse.storage.options.ConfigOption;
import dev.streamhouse.storage.options.MemorySize;
import dev.streamhouse.storage.options.OptionChecks;

import java.time.Duration;

/**
 * Table options that the Flink sink reads (besides the storage's write options, passed through),
 * with Paimon's keys and defaults, and Paimon's sink options this sink does not have yet. Listed in
 * the option registry by {@link SinkOptionDeclarations}.
 */
public final class FlinkSinkOptions {
    private FlinkSinkOptions() {}

    private static final String NO_FINE_GRAINED_RESOURCES = "writers and the committer use the slot they run in";
    private static final String OWN_MEMORY = "writers size their buffers with 'write-buffer-size'";
    private static final String NO_DONE_MARKS = "partitions are not marked done yet";

    public static final ConfigOption<Integer> SINK_PARALLELISM =
            ConfigOption.key("sink.parallelism").intType().noDefaultValue()
                    .withDescription("Parallelism of the sink's writers; defaults to the parallelism of its input.")
                    .checkedBy(OptionChecks.atLeast(1));

    public static final ConfigOption<Boolean> SINK_USE_MANAGED_MEMORY_ALLOCATOR =
            ConfigOption.key("sink.use-managed-memory-allocator").booleanType().defaultValue(false)
                    .withDescription("Give the writers' merge trees Flink managed memory.").noEffectYet(OWN_MEMORY);

    public static final ConfigOption<MemorySize> SINK_MANAGED_WRITER_BUFFER_MEMORY =
            ConfigOption.key("sink.managed.writer-buffer-memory").memoryType().defaultValue(MemorySize.ofMebiBytes(256))
                    .withDescription("Weight of the writers' buffers in Flink managed memory.").noEffectYet(OWN_MEMORY);

    public static final ConfigOption<MemorySize> SINK_CROSS_PARTITION_MANAGED_MEMORY =
            ConfigOption.key("sink.cross-partition.managed-memory").memoryType().defaultValue(MemorySize.ofMebiBytes(256))
                    .withDescription("Weight of the cross-partition key index in Flink managed memory.")
                    .noEffectYet("cross-partition upserts are not supported");

    public static final ConfigOption<Double> SINK_WRITER_CPU =
            ConfigOption.key("sink.writer-cpu").doubleType().defaultValue(1.0)
                    .withDescription("CPU cores of a writer (fine-grained resources).")
                    .noEffectYet(NO_FINE_GRAINED_RESOURCES);

    public static final ConfigOption<MemorySize> SINK_WRITER_MEMORY =
            ConfigOption.key("sink.writer-memory").memoryType().noDefaultValue()
                    .withDescription("Heap of a writer (fine-grained resources).").noEffectYet(NO_FINE_GRAINED_RESOURCES);

    public static final ConfigOption<Double> SINK_COMMITTER_CPU =
            ConfigOption.key("sink.committer-cpu").doubleType().defaultValue(1.0)
                    .withDescription("CPU cores of the committer (fine-grained resources).")
                    .noEffectYet(NO_FINE_GRAINED_RESOURCES);

    public static final ConfigOption<MemorySize> SINK_COMMITTER_MEMORY =
            ConfigOption.key("sink.committer-memory").memoryType().noDefaultValue()
                    .withDescription("Heap of the committer (fine-grained resources).")
                    .noEffectYet(NO_FINE_GRAINED_RESOURCES);

    public static final ConfigOption<Boolean> SINK_COMMITTER_OPERATOR_CHAINING =
            ConfigOption.key("sink.committer-operator-chaining").booleanType().defaultValue(true)
                    .withDescription("Whether the committer may be chained to the writers.")
                    .noEffectYet("the committer is a separate single task");

    public static final ConfigOption<String> SINK_OPERATOR_UID_SUFFIX =
            ConfigOption.key("sink.operator-uid.suffix").stringType().noDefaultValue()
                    .withDescription("Suffix of the uids of the writer and committer operators.")
                    .noEffectYet("sink operator uids come from the planner (or the DataStream builder's uidPrefix)");

    public static final ConfigOption<Boolean> SINK_SAVEPOINT_AUTO_TAG =
            ConfigOption.key("sink.savepoint.auto-tag").booleanType().defaultValue(false)
                    .withDescription("Tag the snapshot a savepoint commits.")
                    .noEffectYet("savepoints are not tagged yet (CALL sys.create_tag tags a snapshot)");

    public static final ConfigOption<Boolean> SINK_CLUSTERING_SORT_IN_CLUSTER =
            ConfigOption.key("sink.clustering.sort-in-cluster").booleanType().defaultValue(true)
                    .withDescription("Clustering: also sort within each writer.").noEffectYet("clustering is not implemented");

    public static final ConfigOption<Integer> SINK_CLUSTERING_SAMPLE_FACTOR =
            ConfigOption.key("sink.clustering.sample-factor").intType().defaultValue(100)
                    .withDescription("Clustering: samples per writer for range partitioning.")
                    .noEffectYet("clustering is not implemented");

    public static final ConfigOption<Long> END_INPUT_WATERMARK =
            ConfigOption.key("end-input.watermark").longType().noDefaultValue()
                    .withDescription("Watermark a bounded write commits with when its input ends.")
                    .noEffectYet("snapshot watermarks of bounded writes are not set");

    public static final ConfigOption<Boolean> PRECOMMIT_COMPACT =
            ConfigOption.key("precommit-compact").booleanType().defaultValue(false)
                    .withDescription("Merge small changelog files (or new files of unaware-bucket append tables) "
                            + "before committing.").withFallbackKeys("changelog.precommit-compact")
                    .noEffectYet("small files are not merged before the commit");

    public static final ConfigOption<Integer> CHANGELOG_PRECOMMIT_COMPACT_THREAD_NUM =
            ConfigOption.key("changelog.precommit-compact.thread-num").intType().noDefaultValue()
                    .withDescription("Threads that merge small changelog files before the commit.")
                    .noEffectYet("small files are not merged before the commit");

    public static final ConfigOption<MemorySize> CHANGELOG_PRECOMMIT_COMPACT_BUFFER_SIZE =
            ConfigOption.key("changelog.precommit-compact.buffer-size").memoryType()
                    .defaultValue(MemorySize.ofMebiBytes(128))
                    .withDescription("Buffer for merging small changelog files before the commit.")
                    .noEffectYet("small files are not merged before the commit");

    public static final ConfigOption<Duration> CHANGELOG_PRODUCER_COMPACTION_INTERVAL =
            ConfigOption.key("changelog-producer.compaction-interval").durationType().defaultValue(Duration.ZERO)
                    .withDescription("Deprecated: interval of full compactions (rounded up to whole checkpoints; "
                            + "'full-compaction.delta-commits' takes precedence).");

    public static final ConfigOption<Integer> UNAWARE_BUCKET_COMPACTION_PARALLELISM =
            ConfigOption.key("unaware-bucket.compaction.parallelism").intType().noDefaultValue()
                    .withDescription("Parallelism of the compaction of append tables without buckets.")
                    .noEffectYet("CALL sys.compact takes its parallelism from 'sink.parallelism' in its options, and a "
                            + "writing job compacts at its writers' parallelism, as Paimon's does");

    public static final ConfigOption<Integer> POSTPONE_DEFAULT_BUCKET_NUM =
            ConfigOption.key("postpone.default-bucket-num").intType().defaultValue(1)
                    .withDescription("Buckets of a postpone-bucket table's partition at its first compaction.")
                    .noEffectYet("postpone buckets are not supported");

    public static final ConfigOption<String> COMMIT_CUSTOM_LISTENERS =
            ConfigOption.key("commit.custom-listeners").stringType().defaultValue("")
                    .withDescription("Listeners (identifiers) called after every successful commit.")
                    .notSupportedYet("commit listeners (user classes) are not supported");

    public static final ConfigOption<Boolean> SINK_WRITER_COORDINATOR_ENABLED =
            ConfigOption.key("sink.writer-coordinator.enabled").booleanType().defaultValue(false)
                    .withDescription("Plan the writers' files in the job manager.")
                    .noEffectYet("every writer reads the manifests it needs itself");

    public static final ConfigOption<MemorySize> SINK_WRITER_COORDINATOR_CACHE_MEMORY =
            ConfigOption.key("sink.writer-coordinator.cache-memory").memoryType().defaultValue(MemorySize.ofBytes(2L << 30))
                    .withDescription("Manifest cache of the writer coordinator.")
                    .noEffectYet("every writer reads the manifests it needs itself");

    public static final ConfigOption<MemorySize> SINK_WRITER_COORDINATOR_PAGE_SIZE =
            ConfigOption.key("sink.writer-coordinator.page-size").memoryType().defaultValue(MemorySize.ofBytes(32 << 10))
                    .withDescription("Page of one request to the writer coordinator.")
                    .noEffectYet("every writer reads the manifests it needs itself");

    public static final ConfigOption<Boolean> FILESYSTEM_JOB_LEVEL_SETTINGS_ENABLED =
            ConfigOption.key("filesystem.job-level-settings.enabled").booleanType().defaultValue(true)
                    .withDescription("Pass the job's file system settings to the table's file system.")
                    .noEffectYet("a table's file system is configured by its catalog's options only");

    public static final ConfigOption<String> SINK_WRITER_REFRESH_DETECTORS =
            ConfigOption.key("sink.writer-refresh-detectors").stringType().noDefaultValue()
                    .withDescription("Option groups a streaming writer reloads when they change.")
                    .noEffectYet("streaming writers keep the options they started with");

    public static final ConfigOption<String> PARTITION_MARK_DONE_ACTION_MODE =
            ConfigOption.key("partition.mark-done-action.mode").oneOf("process-time", "watermark")
                    .defaultValue("process-time")
                    .withDescription("Which clock decides that a partition is done.").noEffectYet(NO_DONE_MARKS);

    public static final ConfigOption<Duration> PARTITION_IDLE_TIME_TO_DONE =
            ConfigOption.key("partition.idle-time-to-done").durationType().noDefaultValue()
                    .withDescription("A partition without new rows for this long is marked done.")
                    .noEffectYet(NO_DONE_MARKS);

    public static final ConfigOption<Duration> PARTITION_TIME_INTERVAL =
            ConfigOption.key("partition.time-interval").durationType().noDefaultValue()
                    .withDescription("Time span of one partition, e.g. '1 d' or '1 h'.").noEffectYet(NO_DONE_MARKS);

    public static final ConfigOption<Boolean> PARTITION_MARK_DONE_RECOVER_FROM_STATE =
            ConfigOption.key("partition.mark-done.recover-from-state").booleanType().defaultValue(true)
                    .withDescription("Mark partitions done that the restored state says are finished.")
                    .noEffectYet(NO_DONE_MARKS);
}
