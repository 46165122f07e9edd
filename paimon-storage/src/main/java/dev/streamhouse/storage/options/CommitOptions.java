package dev.streamhouse.storage.options;

import java.time.Duration;

/** The optimistic commit loop (docs/format.md §4.3). */
public final class CommitOptions {
    private CommitOptions() {}

    public static final ConfigOption<Integer> COMMIT_MAX_RETRIES =
            ConfigOption.key("commit.max-retries").intType().defaultValue(10)
                    .withDescription("How often a commit that lost a race for the next snapshot id retries.")
                    .checkedBy(OptionChecks.atLeast(0));

    public static final ConfigOption<Duration> COMMIT_MIN_RETRY_WAIT =
            ConfigOption.key("commit.min-retry-wait").durationType().defaultValue(Duration.ofMillis(10))
                    .withDescription("Smallest wait before retrying a commit.");

    public static final ConfigOption<Duration> COMMIT_MAX_RETRY_WAIT =
            ConfigOption.key("commit.max-retry-wait").durationType().defaultValue(Duration.ofSeconds(10))
                    .withDescription("Largest wait before retrying a commit.");

    private static final String NO_CALLBACKS = "commit callbacks and listeners (user classes) are not supported";

    public static final ConfigOption<Duration> COMMIT_TIMEOUT =
            ConfigOption.key("commit.timeout").durationType().noDefaultValue()
                    .withDescription("Longest time a commit keeps retrying.")
                    .noEffectYet("commits retry 'commit.max-retries' times, without a time limit");

    public static final ConfigOption<Boolean> COMMIT_FORCE_COMPACT =
            ConfigOption.key("commit.force-compact").booleanType().defaultValue(false)
                    .withDescription("Every commit waits for the writer's running compaction; by default a streaming "
                            + "checkpoint hands out only the compactions that finished.");

    public static final ConfigOption<Boolean> COMMIT_FORCE_CREATE_SNAPSHOT =
            ConfigOption.key("commit.force-create-snapshot").booleanType().defaultValue(false)
                    .withDescription("Streaming: commit a snapshot even when a checkpoint wrote nothing.")
                    .noEffectYet("empty commits follow the store's own rule");

    public static final ConfigOption<Boolean> SNAPSHOT_IGNORE_EMPTY_COMMIT =
            ConfigOption.key("snapshot.ignore-empty-commit").booleanType().noDefaultValue()
                    .withDescription("Whether a commit that changes nothing creates no snapshot.")
                    .noEffectYet("empty commits follow the store's own rule");

    public static final ConfigOption<String> COMMIT_USER_PREFIX =
            ConfigOption.key("commit.user-prefix").stringType().noDefaultValue()
                    .withDescription("Prefix of the commit user names jobs commit under.")
                    .noEffectYet("commit users are generated without a prefix");

    public static final ConfigOption<String> COMMIT_CALLBACKS =
            ConfigOption.key("commit.callbacks").stringType().defaultValue("")
                    .withDescription("Classes called after every successful commit.").notSupportedYet(NO_CALLBACKS);

    public static final OptionPattern COMMIT_CALLBACK_PARAM = OptionPattern.of(
            ConfigOption.key("commit.callback.<class>.param").stringType().noDefaultValue()
                    .withDescription("Constructor argument of the commit callback class <class>.")
                    .notSupportedYet(NO_CALLBACKS));

    public static final ConfigOption<Long> COMMIT_STRICT_MODE_LAST_SAFE_SNAPSHOT =
            ConfigOption.key("commit.strict-mode.last-safe-snapshot").longType().noDefaultValue()
                    .withDescription("Abort a commit if another writer committed a COMPACT or OVERWRITE snapshot "
                            + "after this one.").notSupportedYet("strict-mode commit checks are not implemented");
}
