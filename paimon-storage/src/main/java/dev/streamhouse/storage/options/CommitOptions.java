package dev.streamhouse.storage.options;

import java.time.Duration;

/** The optimistic commit loop (FORMAT §4.3). */
public final class CommitOptions {
    private CommitOptions() {}

    public static final ConfigOption<Integer> COMMIT_MAX_RETRIES =
            ConfigOption.key("commit.max-retries").intType().defaultValue(10)
                    .withDescription("How often a commit that lost a race for the next snapshot id retries.");

    public static final ConfigOption<Duration> COMMIT_MIN_RETRY_WAIT =
            ConfigOption.key("commit.min-retry-wait").durationType().defaultValue(Duration.ofMillis(10))
                    .withDescription("Smallest wait before retrying a commit.");

    public static final ConfigOption<Duration> COMMIT_MAX_RETRY_WAIT =
            ConfigOption.key("commit.max-retry-wait").durationType().defaultValue(Duration.ofSeconds(10))
                    .withDescription("Largest wait before retrying a commit.");
}
