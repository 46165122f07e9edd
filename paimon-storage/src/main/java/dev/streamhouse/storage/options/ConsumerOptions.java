package dev.streamhouse.storage.options;

import java.time.Duration;

/**
 * Named consumers of a table (FORMAT §11.3): a streaming read with a {@code consumer-id} records in
 * {@code consumer/consumer-<id>} which snapshot it reads next, and a new read with the same id starts
 * there.
 */
public final class ConsumerOptions {
    private ConsumerOptions() {}

    public static final ConfigOption<String> CONSUMER_ID =
            ConfigOption.key("consumer-id").stringType().noDefaultValue()
                    .withDescription("Name of this streaming reader. Its progress is saved when checkpoints "
                            + "complete; a read with the same id resumes from it, overriding 'scan.mode'.");

    public static final ConfigOption<Duration> CONSUMER_EXPIRATION_TIME =
            ConfigOption.key("consumer.expiration-time").durationType().noDefaultValue()
                    .withDescription("How long a consumer not updated is kept. Accepted for compatibility; this "
                            + "store neither expires consumers nor snapshots yet, so it has no effect.");

    public static final ConfigOption<Boolean> CONSUMER_IGNORE_PROGRESS =
            ConfigOption.key("consumer.ignore-progress").booleanType().defaultValue(false)
                    .withDescription("Start as 'scan.mode' says even if the consumer has saved progress; the "
                            + "progress is overwritten from then on.");
}
