package dev.streamhouse.storage.options;

import java.time.Duration;

/**
 * Named consumers of a table (docs/format.md §11.3): a streaming read with a {@code consumer-id} records in
 * {@code consumer/consumer-<id>} which snapshot it reads next, and a new read with the same id starts
 * there. Paimon's keys and defaults.
 */
public final class ConsumerOptions {
    private ConsumerOptions() {}

    /** Values of {@code consumer.mode}. */
    public enum ConsumerMode {
        /** Progress is aligned with checkpoints: the saved next snapshot was read completely by all readers. */
        EXACTLY_ONCE("exactly-once"),
        /** Each reader's progress is saved independently; a restart may read part of a snapshot again. */
        AT_LEAST_ONCE("at-least-once");

        private final String value;

        ConsumerMode(String value) {
            this.value = value;
        }

        @Override
        public String toString() {
            return value;
        }
    }

    public static final ConfigOption<String> CONSUMER_ID =
            ConfigOption.key("consumer-id").stringType().noDefaultValue()
                    .withDescription("Name of this streaming reader. Its progress is saved in "
                            + "'consumer/consumer-<id>' when checkpoints complete; a read with the same id resumes "
                            + "from it, overriding 'scan.mode'. Snapshot expiration keeps the snapshots a "
                            + "consumer has not read yet.")
                    .checkedBy(id -> id.isBlank() || id.contains("/") || id.contains("\\")
                            ? "a consumer id must be non-blank and must not contain '/' or '\\' (it names a file)"
                            : null);

    public static final ConfigOption<Duration> CONSUMER_EXPIRATION_TIME =
            ConfigOption.key("consumer.expiration-time").durationType().noDefaultValue()
                    .withDescription("How long a consumer that is not updated is kept; unset keeps consumers for "
                            + "ever. An expired consumer is deleted after a commit and no longer keeps snapshots from "
                            + "expiring.");

    public static final ConfigOption<ConsumerMode> CONSUMER_MODE =
            ConfigOption.key("consumer.mode").enumType(ConsumerMode.class).defaultValue(ConsumerMode.EXACTLY_ONCE)
                    .withDescription("How a consumer's progress is saved: 'exactly-once' (aligned with "
                            + "checkpoints, the default) or 'at-least-once' (per reader).")
                    .noEffectYet("progress is always saved aligned with checkpoints (exactly-once), which also "
                            + "satisfies 'at-least-once'");

    public static final ConfigOption<Boolean> CONSUMER_IGNORE_PROGRESS =
            ConfigOption.key("consumer.ignore-progress").booleanType().defaultValue(false)
                    .withDescription("Start as 'scan.mode' says even if the consumer has saved progress; the "
                            + "progress is overwritten from then on.");
}
