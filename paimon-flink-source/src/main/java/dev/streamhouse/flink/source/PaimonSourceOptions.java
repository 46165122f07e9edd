package dev.streamhouse.flink.source;

import dev.streamhouse.storage.options.ConfigOption;
import dev.streamhouse.storage.options.OptionChecks;

import java.time.Duration;

/**
 * Table options of the Flink source, with Paimon's keys and defaults, read from the table's options
 * (and SQL hints) through {@code table.schema().tableOptions()}. Listed in the option registry by
 * {@link SourceOptionDeclarations}, with Paimon's source options this source does not have yet.
 *
 * <p>Options the storage layer also reads are declared there: {@code continuous.discovery-interval}
 * ({@code StreamReadOptions}), {@code scan.mode} and friends ({@code ScanOptions}), {@code consumer-id}
 * ({@code ConsumerOptions}).
 */
public final class PaimonSourceOptions {
    private PaimonSourceOptions() {}

    private static final String FIXED_ENUMERATOR = "the enumerator assigns splits its own way";

    public static final ConfigOption<Integer> SCAN_PARALLELISM =
            ConfigOption.key("scan.parallelism").intType().noDefaultValue()
                    .withDescription("Parallelism of the source. Set, it wins over inference; unset, the parallelism "
                            + "is inferred (see 'scan.infer-parallelism') or Flink's default is used.")
                    .checkedBy(OptionChecks.atLeast(1));

    public static final ConfigOption<Boolean> INFER_SCAN_PARALLELISM =
            ConfigOption.key("scan.infer-parallelism").booleanType().defaultValue(true)
                    .withDescription("Whether to infer the source parallelism: for a bounded read, the number of "
                            + "splits, capped by 'scan.infer-parallelism.max' and by a pushed-down limit; for a "
                            + "streaming read, the number of fixed buckets.");

    public static final ConfigOption<Integer> INFER_SCAN_MAX_PARALLELISM =
            ConfigOption.key("scan.infer-parallelism.max").intType().defaultValue(1024)
                    .withDescription("Upper bound of an inferred source parallelism.")
                    .checkedBy(OptionChecks.atLeast(1));

    public static final ConfigOption<Integer> SCAN_MAX_SPLITS_PER_TASK =
            ConfigOption.key("scan.max-splits-per-task").intType().defaultValue(10)
                    .withDescription("Streaming reads: how many unassigned splits the enumerator keeps per source task "
                            + "before it stops looking for new snapshots until readers catch up (back pressure).")
                    .checkedBy(OptionChecks.atLeast(1));

    public static final ConfigOption<Integer> SCAN_SPLIT_ENUMERATOR_BATCH_SIZE =
            ConfigOption.key("scan.split-enumerator.batch-size").intType().defaultValue(10)
                    .withDescription("Bounded reads: splits handed to a reader per request.")
                    .checkedBy(OptionChecks.atLeast(1)).noEffectYet(FIXED_ENUMERATOR);

    public static final ConfigOption<String> SCAN_SPLIT_ENUMERATOR_MODE =
            ConfigOption.key("scan.split-enumerator.mode").oneOf("fair", "preemptive").defaultValue("fair")
                    .withDescription("Bounded reads: splits spread evenly over readers (fair) or taken by whoever "
                            + "asks first (preemptive).").noEffectYet(FIXED_ENUMERATOR);

    public static final ConfigOption<Integer> SCAN_MAX_SNAPSHOT_COUNT =
            ConfigOption.key("scan.max-snapshot.count").intType().defaultValue(-1)
                    .withDescription("Streaming reads: most snapshots read per checkpoint; negative is unlimited.")
                    .noEffectYet("streaming reads are paced by 'scan.max-splits-per-task'");

    public static final ConfigOption<Boolean> SCAN_REMOVE_NORMALIZE =
            ConfigOption.key("scan.remove-normalize").booleanType().defaultValue(false)
                    .withDescription("Streaming reads of primary-key tables: leave out Flink's normalize step even "
                            + "when the table's changes are not a complete changelog.")
                    .withFallbackKeys("log.scan.remove-normalize")
                    .notSupportedYet("the changelog mode of a streaming read follows 'changelog-producer'; without "
                            + "normalization the changes of a 'none' table would be incomplete");

    public static final ConfigOption<Boolean> READ_SHUFFLE_BUCKET_WITH_PARTITION =
            ConfigOption.key("read.shuffle-bucket-with-partition").booleanType().defaultValue(true)
                    .withDescription("Streaming reads: spread splits over readers by partition and bucket.")
                    .withFallbackKeys("streaming-read.shuffle-bucket-with-partition")
                    .noEffectYet(FIXED_ENUMERATOR);

    public static final ConfigOption<Boolean> SOURCE_CHECKPOINT_ALIGN_ENABLED =
            ConfigOption.key("source.checkpoint-align.enabled").booleanType().defaultValue(false)
                    .withDescription("Streaming reads: take a checkpoint only after a whole snapshot was read.")
                    .notSupportedYet("checkpoints aligned with snapshots are not implemented");

    public static final ConfigOption<Duration> SOURCE_CHECKPOINT_ALIGN_TIMEOUT =
            ConfigOption.key("source.checkpoint-align.timeout").durationType().defaultValue(Duration.ofSeconds(30))
                    .withDescription("Longest wait for a new snapshot when checkpoints are aligned.")
                    .noEffectYet("checkpoints aligned with snapshots are not implemented");

    public static final ConfigOption<Boolean> SCAN_BOUNDED =
            ConfigOption.key("scan.bounded").booleanType().noDefaultValue()
                    .withDescription("Whether a read ends (default: bounded in batch mode, unbounded in streaming).")
                    .notSupportedYet("a read is bounded exactly when the job runs in batch mode");

    public static final ConfigOption<Boolean> SCAN_DEDICATED_SPLIT_GENERATION =
            ConfigOption.key("scan.dedicated-split-generation").booleanType().defaultValue(false)
                    .withDescription("Plan splits in a task instead of the job manager.")
                    .noEffectYet("splits are planned by the enumerator");

    public static final ConfigOption<String> SOURCE_OPERATOR_UID_SUFFIX =
            ConfigOption.key("source.operator-uid.suffix").stringType().noDefaultValue()
                    .withDescription("Suffix of the uids of the source operators.")
                    .noEffectYet("source operator uids come from the planner");
}
