package dev.streamhouse.storage.options;

import java.time.Duration;

/**
 * Streaming reads: what changes a primary-key table offers ({@code changelog-producer}), how often new
 * snapshots are looked for, and whether OVERWRITE snapshots are read. Paimon's keys and defaults.
 */
public final class StreamReadOptions {
    private StreamReadOptions() {}

    /** How a primary-key table produces the changes streaming readers see (FORMAT §10.1). */
    public enum ChangelogProducer {
        /** No changelog files; streaming readers read the new data files of each snapshot. */
        NONE("none"),
        /** Writers also write every input record to changelog files of the APPEND snapshot. */
        INPUT("input"),
        /** Compaction produces the changelog by looking up old values (COMPACT snapshots). */
        LOOKUP("lookup"),
        /** Full compactions produce the changelog (COMPACT snapshots). */
        FULL_COMPACTION("full-compaction");

        private final String value;

        ChangelogProducer(String value) {
            this.value = value;
        }

        @Override
        public String toString() {
            return value;
        }
    }

    public static final ConfigOption<ChangelogProducer> CHANGELOG_PRODUCER =
            ConfigOption.key("changelog-producer").enumType(ChangelogProducer.class)
                    .defaultValue(ChangelogProducer.NONE)
                    .withDescription("How a primary-key table produces changes for streaming readers: none, "
                            + "input, lookup or full-compaction.");

    public static final ConfigOption<Duration> CONTINUOUS_DISCOVERY_INTERVAL =
            ConfigOption.key("continuous.discovery-interval").durationType().defaultValue(Duration.ofSeconds(10))
                    .withDescription("How often a streaming read looks for new snapshots.");

    public static final ConfigOption<Boolean> STREAMING_READ_OVERWRITE =
            ConfigOption.key("streaming-read-overwrite").booleanType().defaultValue(false)
                    .withDescription("Whether a streaming read reads the files OVERWRITE snapshots add (INSERT "
                            + "OVERWRITE, TRUNCATE); the rows they remove are not retracted. When false they "
                            + "are skipped.");
}
