package dev.streamhouse.storage.options;

/**
 * Paimon's legacy external log system (a Kafka topic beside the table, removed in later Paimon
 * versions). Using one is refused; its settings without a log system are accepted with a warning.
 */
public final class LogSystemOptions {
    private LogSystemOptions() {}

    private static final String NO_LOG = "external log systems are not supported";

    public static final ConfigOption<String> LOG_SYSTEM =
            ConfigOption.key("log.system").stringType().defaultValue("none")
                    .withDescription("External log system that keeps the table's changes ('none': the table's "
                            + "own files).").affectingReads().notSupportedYet(NO_LOG);

    public static final ConfigOption<Integer> LOG_SYSTEM_PARTITIONS =
            ConfigOption.key("log.system.partitions").intType().defaultValue(1)
                    .withDescription("Partitions of the log system's topic.").noEffectYet(NO_LOG);

    public static final ConfigOption<Integer> LOG_SYSTEM_REPLICATION =
            ConfigOption.key("log.system.replication").intType().defaultValue(1)
                    .withDescription("Replication of the log system's topic.").noEffectYet(NO_LOG);

    public static final ConfigOption<String> LOG_CONSISTENCY =
            ConfigOption.key("log.consistency").oneOf("transactional", "eventual").defaultValue("transactional")
                    .withDescription("Consistency of the log system.").noEffectYet(NO_LOG);

    public static final ConfigOption<String> LOG_CHANGELOG_MODE =
            ConfigOption.key("log.changelog-mode").oneOf("auto", "all", "upsert").defaultValue("auto")
                    .withDescription("Changelog kinds the log system keeps.").noEffectYet(NO_LOG);

    public static final ConfigOption<String> LOG_KEY_FORMAT =
            ConfigOption.key("log.key.format").stringType().defaultValue("json")
                    .withDescription("Key format of log messages.").noEffectYet(NO_LOG);

    public static final ConfigOption<String> LOG_FORMAT =
            ConfigOption.key("log.format").stringType().defaultValue("debezium-json")
                    .withDescription("Value format of log messages.").noEffectYet(NO_LOG);

    public static final ConfigOption<Boolean> LOG_IGNORE_DELETE =
            ConfigOption.key("log.ignore-delete").booleanType().defaultValue(false)
                    .withDescription("Whether the log system drops deletes.").noEffectYet(NO_LOG);
}
