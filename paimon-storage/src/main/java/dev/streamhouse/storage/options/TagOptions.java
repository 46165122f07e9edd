package dev.streamhouse.storage.options;

import java.time.Duration;

/**
 * Tags (named snapshots kept beyond expiration), their automatic creation, and the snapshot
 * watermarks that drive it (Paimon's keys and defaults). Tags are created, read ({@code scan.tag-name})
 * and rolled back to by the {@code sys} procedures and {@code TableTags}; automatic tags are created
 * after each commit ({@code dev.streamhouse.storage.maintenance.tag.PostCommitTags}).
 */
public final class TagOptions {
    private TagOptions() {}

    public static final ConfigOption<String> TAG_AUTOMATIC_CREATION =
            ConfigOption.key("tag.automatic-creation").oneOf("none", "process-time", "watermark", "batch")
                    .defaultValue("none")
                    .withDescription("Whether and by which clock tags are created automatically after commits: "
                            + "'process-time' (snapshot commit times), 'watermark' (snapshot watermarks), 'batch' "
                            + "(a tag at the end of each batch job's commit).");

    public static final ConfigOption<Boolean> TAG_CREATE_SUCCESS_FILE =
            ConfigOption.key("tag.create-success-file").booleanType().defaultValue(false)
                    .withDescription("Whether 'tag-success-file/<tag>_SUCCESS' is written for each automatically "
                            + "created tag (and deleted with it).");

    public static final ConfigOption<String> TAG_CREATION_PERIOD =
            ConfigOption.key("tag.creation-period").oneOf("daily", "hourly", "two-hours").defaultValue("daily")
                    .withDescription("How often automatic tags are created; names 'yyyy-MM-dd' (daily), "
                            + "'yyyy-MM-dd HH' (hourly, two-hours), see 'tag.period-formatter'.");

    public static final ConfigOption<Duration> TAG_CREATION_DELAY =
            ConfigOption.key("tag.creation-delay").durationType().defaultValue(Duration.ZERO)
                    .withDescription("How long after a period ends its tag is created, for late data; must be "
                            + "shorter than the period.");

    public static final ConfigOption<String> TAG_PERIOD_FORMATTER =
            ConfigOption.key("tag.period-formatter")
                    .oneOf("with_dashes", "without_dashes", "without_dashes_and_spaces").defaultValue("with_dashes")
                    .withDescription("Date format of automatic tag names: with_dashes ('2024-05-01', "
                            + "'2024-05-01 13'), without_dashes ('20240501', '20240501 13'), "
                            + "without_dashes_and_spaces (hourly '2024050113'; daily as without_dashes).");

    public static final ConfigOption<Duration> TAG_CREATION_PERIOD_DURATION =
            ConfigOption.key("tag.creation-period-duration").durationType().noDefaultValue()
                    .withDescription("A period length for automatic tags that replaces 'tag.creation-period'; tag "
                            + "names are then 'yyyyMMddHHmm'.").checkedBy(OptionChecks.positiveDuration());

    public static final ConfigOption<Integer> TAG_NUM_RETAINED_MAX =
            ConfigOption.key("tag.num-retained-max").intType().noDefaultValue()
                    .withDescription("Most automatic tags to keep: beyond it the oldest are deleted after each "
                            + "automatic tag (only automatic tags count; in batch mode all tags count, as in "
                            + "Apache Paimon 1.3.1).").checkedBy(OptionChecks.atLeast(1));

    public static final ConfigOption<Duration> TAG_DEFAULT_TIME_RETAINED =
            ConfigOption.key("tag.default-time-retained").durationType().noDefaultValue()
                    .withDescription("How long a new tag is kept by default: applies to automatic tags and to "
                            + "tags of the latest snapshot the Java API creates (TableTags.createFromLatest); "
                            + "CALL sys.create_tag without 'time_retained' keeps the tag until it is deleted, as "
                            + "in Apache Paimon 1.3.1. Tags whose retention passed are deleted after each commit.");

    public static final ConfigOption<Boolean> TAG_AUTOMATIC_COMPLETION =
            ConfigOption.key("tag.automatic-completion").booleanType().defaultValue(false)
                    .withDescription("Whether periods that got no automatic tag (no snapshot in them) get one "
                            + "later, one per following snapshot.");

    public static final ConfigOption<String> TAG_BATCH_CUSTOMIZED_NAME =
            ConfigOption.key("tag.batch.customized-name").stringType().noDefaultValue()
                    .withDescription("Name of the tag a batch job creates with 'tag.automatic-creation' = 'batch' "
                            + "(default 'batch-write-<yyyy-MM-dd>').");

    public static final ConfigOption<String> TAG_CALLBACKS =
            ConfigOption.key("tag.callbacks").stringType().defaultValue("")
                    .withDescription("Classes called after a tag is created.")
                    .notSupportedYet("tag callbacks (user classes) are not supported");

    public static final OptionPattern TAG_CALLBACK_PARAM = OptionPattern.of(
            ConfigOption.key("tag.callback.<class>.param").stringType().noDefaultValue()
                    .withDescription("Constructor argument of the tag callback class <class>.")
                    .notSupportedYet("tag callbacks (user classes) are not supported"));

    public static final ConfigOption<Duration> SNAPSHOT_WATERMARK_IDLE_TIMEOUT =
            ConfigOption.key("snapshot.watermark-idle-timeout").durationType().noDefaultValue()
                    .withDescription("With 'tag.automatic-creation' = 'watermark': when the latest snapshot's "
                            + "watermark is this much older than now, a checkpoint without data still commits a "
                            + "snapshot, recording the newer watermark, so watermark tags keep coming while no data "
                            + "is written.");

    public static final ConfigOption<String> SINK_WATERMARK_TIME_ZONE =
            ConfigOption.key("sink.watermark-time-zone").stringType().defaultValue("UTC")
                    .withDescription("Time zone in which snapshot watermarks are turned into times for tags.");

    public static final ConfigOption<String> SINK_PROCESS_TIME_ZONE =
            ConfigOption.key("sink.process-time-zone").stringType().noDefaultValue()
                    .withDescription("Time zone of snapshot commit times for process-time and batch tags "
                            + "(default: the JVM's).");

    public static final ConfigOption<String> METASTORE_TAG_TO_PARTITION =
            ConfigOption.key("metastore.tag-to-partition").stringType().noDefaultValue()
                    .withDescription("Show the tags of an unpartitioned table as partitions in a Hive metastore.")
                    .noEffectYet("only a catalog with 'metastore' = 'hive' registers tags as partitions (there it "
                            + "takes effect)");

    public static final ConfigOption<String> METASTORE_TAG_TO_PARTITION_PREVIEW =
            ConfigOption.key("metastore.tag-to-partition.preview")
                    .oneOf("none", "process-time", "watermark", "batch").defaultValue("none")
                    .withDescription("Preview tags of not yet tagged snapshots in a Hive metastore.")
                    .noEffectYet("tags that do not exist yet are never registered (a hive catalog refuses a value "
                            + "other than 'none')");
}
