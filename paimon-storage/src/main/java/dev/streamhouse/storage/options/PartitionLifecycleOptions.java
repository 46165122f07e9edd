package dev.streamhouse.storage.options;

import java.time.Duration;

/**
 * Partition expiration, "partition done" markers and metastore partition sync (Paimon's keys and
 * defaults). Partitions expire (are dropped) when {@code partition.expiration-time} is set, see
 * {@code dev.streamhouse.storage.maintenance.partition.TablePartitionExpiration}; the automatic done markers of streaming
 * writes are accepted with a warning ({@code CALL sys.mark_partition_done} writes success files).
 */
public final class PartitionLifecycleOptions {
    private PartitionLifecycleOptions() {}

    private static final String NO_DONE_MARKS = "partitions are not marked done yet";

    private static String onlySuccessFiles(String actions) {
        for (String action : actions.split(",")) {
            if (!"success-file".equals(action.trim().toLowerCase(java.util.Locale.ROOT))) {
                return "action '" + action.trim() + "' is not supported yet; only 'success-file' is";
            }
        }
        return null;
    }

    public static final ConfigOption<Duration> PARTITION_EXPIRATION_TIME =
            ConfigOption.key("partition.expiration-time").durationType().noDefaultValue()
                    .withDescription("Partitions older than this (by their values or last update) are dropped.");

    public static final ConfigOption<String> PARTITION_EXPIRATION_STRATEGY =
            ConfigOption.key("partition.expiration-strategy").oneOf("values-time", "update-time", "custom")
                    .defaultValue("values-time")
                    .withDescription("How a partition's age is found: from its values or its last update.")
                    .supportedOnly("'values-time' and 'update-time'", v -> "custom".equals(v)
                            ? "custom partition expiration strategies are not supported" : null);

    public static final ConfigOption<Duration> PARTITION_EXPIRATION_CHECK_INTERVAL =
            ConfigOption.key("partition.expiration-check-interval").durationType().defaultValue(Duration.ofHours(1))
                    .withDescription("How often a writer's commit looks for expired partitions.");

    public static final ConfigOption<Integer> PARTITION_EXPIRATION_MAX_NUM =
            ConfigOption.key("partition.expiration-max-num").intType().defaultValue(100)
                    .withDescription("Most partitions expired at once.").checkedBy(OptionChecks.atLeast(1));

    public static final ConfigOption<Integer> PARTITION_EXPIRATION_BATCH_SIZE =
            ConfigOption.key("partition.expiration-batch-size").intType().noDefaultValue()
                    .withDescription("Partitions expired per batch.").checkedBy(OptionChecks.atLeast(1));

    public static final ConfigOption<String> PARTITION_TIMESTAMP_FORMATTER =
            ConfigOption.key("partition.timestamp-formatter").stringType().noDefaultValue()
                    .withDescription("Pattern that reads a time from partition values (for expiration and done "
                            + "markers).");

    public static final ConfigOption<String> PARTITION_TIMESTAMP_PATTERN =
            ConfigOption.key("partition.timestamp-pattern").stringType().noDefaultValue()
                    .withDescription("How partition keys combine into the text 'partition.timestamp-formatter' "
                            + "reads, e.g. '$dt $hour:00:00'.");

    public static final ConfigOption<Boolean> END_INPUT_CHECK_PARTITION_EXPIRE =
            ConfigOption.key("end-input.check-partition-expire").booleanType().defaultValue(false)
                    .withDescription("Whether a bounded write checks for expired partitions when it ends.");

    public static final ConfigOption<String> PARTITION_MARK_DONE_ACTION =
            ConfigOption.key("partition.mark-done-action").stringType().defaultValue("success-file")
                    .withDescription("How a finished partition is announced: success-file, done-partition, "
                            + "mark-event, http-report or custom (comma-separated).")
                    .supportedOnly("'success-file' only, written by CALL sys.mark_partition_done; streaming writes "
                            + "mark no partition done yet", PartitionLifecycleOptions::onlySuccessFiles);

    public static final ConfigOption<String> PARTITION_MARK_DONE_ACTION_CUSTOM_CLASS =
            ConfigOption.key("partition.mark-done-action.custom.class").stringType().noDefaultValue()
                    .withDescription("Class of the 'custom' mark-done action.").noEffectYet(NO_DONE_MARKS);

    public static final ConfigOption<String> PARTITION_MARK_DONE_ACTION_HTTP_URL =
            ConfigOption.key("partition.mark-done-action.http.url").stringType().noDefaultValue()
                    .withDescription("Server the 'http-report' mark-done action reports to.")
                    .noEffectYet(NO_DONE_MARKS);

    public static final ConfigOption<String> PARTITION_MARK_DONE_ACTION_HTTP_PARAMS =
            ConfigOption.key("partition.mark-done-action.http.params").stringType().noDefaultValue()
                    .withDescription("Request parameters of the 'http-report' mark-done action.")
                    .noEffectYet(NO_DONE_MARKS);

    public static final ConfigOption<Boolean> PARTITION_END_INPUT_TO_DONE =
            ConfigOption.key("partition.end-input-to-done").booleanType().defaultValue(false)
                    .withDescription("Whether a bounded write marks its partitions done when it ends.")
                    .noEffectYet(NO_DONE_MARKS);

    public static final ConfigOption<String> PARTITION_SINK_STRATEGY =
            ConfigOption.key("partition.sink-strategy").oneOf("NONE", "HASH").defaultValue("NONE")
                    .withDescription("Whether writers of append or postpone-bucket tables shuffle by partition to "
                            + "write fewer files.").noEffectYet("writers do not shuffle by partition");

    public static final ConfigOption<Boolean> METASTORE_PARTITIONED_TABLE =
            ConfigOption.key("metastore.partitioned-table").booleanType().defaultValue(false)
                    .withDescription("Whether the table is registered as partitioned in a Hive metastore.")
                    .noEffectYet("only a catalog with 'metastore' = 'hive' registers partitions (there it takes effect)");

    public static final ConfigOption<Duration> PARTITION_IDLE_TIME_TO_REPORT_STATISTIC =
            ConfigOption.key("partition.idle-time-to-report-statistic").durationType().defaultValue(Duration.ZERO)
                    .withDescription("Idle time after which partition statistics are reported to a metastore.")
                    .noEffectYet("there is no metastore integration");
}
