package dev.streamhouse.storage.options;

import java.time.Duration;

/**
 * Streaming reads: how often new snapshots are looked for and whether OVERWRITE snapshots are read.
 * Paimon's keys and defaults. What changes a primary-key table offers is
 * {@link ChangelogOptions#CHANGELOG_PRODUCER}.
 */
public final class StreamReadOptions {
    private StreamReadOptions() {}

    public static final ConfigOption<Duration> CONTINUOUS_DISCOVERY_INTERVAL =
            ConfigOption.key("continuous.discovery-interval").durationType().defaultValue(Duration.ofSeconds(10))
                    .withDescription("How often a streaming read looks for new snapshots (and a streaming write's "
                            + "compaction coordinator of an append table without buckets for new files).")
                    .checkedBy(OptionChecks.positiveDuration());

    public static final ConfigOption<Boolean> STREAMING_READ_OVERWRITE =
            ConfigOption.key("streaming-read-overwrite").booleanType().defaultValue(false)
                    .withDescription("Primary-key tables: whether a streaming read emits what OVERWRITE snapshots "
                            + "(INSERT OVERWRITE, TRUNCATE) change: the rows they add and the retraction of the rows "
                            + "they remove. When false (the default) OVERWRITE snapshots are skipped. Append tables "
                            + "use 'streaming-read-append-overwrite'.")
                    .affectingReads()
                    .notSupportedYet("streaming reads cannot retract the rows an overwrite removes yet");

    public static final ConfigOption<Boolean> STREAMING_READ_APPEND_OVERWRITE =
            ConfigOption.key("streaming-read-append-overwrite").booleanType().defaultValue(false)
                    .withDescription("Append tables: whether a streaming read reads the rows OVERWRITE snapshots "
                            + "add, as inserts; the rows an overwrite removes are not retracted. When false (the "
                            + "default) OVERWRITE snapshots are skipped.");

    public static final ConfigOption<Duration> STREAMING_READ_SNAPSHOT_DELAY =
            ConfigOption.key("streaming.read.snapshot.delay").durationType().noDefaultValue()
                    .withDescription("A streaming read reads a snapshot only once it is this old.")
                    .noEffectYet("streaming reads read each snapshot as soon as they discover it");

    public static final ConfigOption<String> STREAMING_READ_MODE =
            ConfigOption.key("streaming-read-mode").oneOf("log", "file").noDefaultValue()
                    .withDescription("Whether streaming reads read the table's files or an external log system.")
                    .supportedOnly("'file' only", v -> v.equals("file") ? null : "external log systems are not supported")
                    .affectingReads();

    public static final ConfigOption<String> STREAM_SCAN_MODE =
            ConfigOption.key("stream-scan-mode").oneOf("none", "compact-bucket-table", "file-monitor")
                    .defaultValue("none")
                    .withDescription("Internal: a special-purpose streaming scan of Paimon's own jobs.")
                    .affectingReads().notSupportedYet("Paimon's internal scans are not supported");

    public static final ConfigOption<String> BATCH_SCAN_MODE =
            ConfigOption.key("batch-scan-mode").oneOf("none", "compact").defaultValue("none")
                    .withDescription("Internal: a special-purpose batch scan of Paimon's own jobs.")
                    .affectingReads().notSupportedYet("Paimon's internal scans are not supported");
}
