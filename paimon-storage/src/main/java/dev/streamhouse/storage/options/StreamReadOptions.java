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
                    .withDescription("How often a streaming read looks for new snapshots.");

    public static final ConfigOption<Boolean> STREAMING_READ_OVERWRITE =
            ConfigOption.key("streaming-read-overwrite").booleanType().defaultValue(false)
                    .withDescription("Primary-key tables: whether a streaming read reads the files OVERWRITE "
                            + "snapshots add (INSERT OVERWRITE, TRUNCATE), as their stored row kinds. Unlike "
                            + "Apache Paimon, the rows an overwrite removes are not retracted. When false (the "
                            + "default) OVERWRITE snapshots are skipped. Append tables use "
                            + "'streaming-read-append-overwrite'.");

    public static final ConfigOption<Boolean> STREAMING_READ_APPEND_OVERWRITE =
            ConfigOption.key("streaming-read-append-overwrite").booleanType().defaultValue(false)
                    .withDescription("Append tables: whether a streaming read reads the rows OVERWRITE snapshots "
                            + "add, as inserts; the rows an overwrite removes are not retracted. When false (the "
                            + "default) OVERWRITE snapshots are skipped.");
}
