package dev.streamhouse.storage.options;

import java.time.Duration;

/**
 * Tags (named snapshots kept beyond expiration), their automatic creation, and the snapshot
 * watermarks that drive it (Paimon's keys and defaults). Tags are created, read ({@code scan.tag-name})
 * and rolled back to by the {@code sys} procedures and {@code TableTags}; automatic creation is not
 * implemented yet and accepted with a warning, since it changes no row a query returns.
 */
public final class TagOptions {
    private TagOptions() {}

    private static final String NO_TAGS = "automatic tag creation is not implemented yet, so no tag is created "
            + "automatically (CALL sys.create_tag works)";

    public static final ConfigOption<String> TAG_AUTOMATIC_CREATION =
            ConfigOption.key("tag.automatic-creation").oneOf("none", "process-time", "watermark", "batch")
                    .defaultValue("none")
                    .withDescription("Whether and by which clock tags are created automatically.")
                    .noEffectYet(NO_TAGS);

    public static final ConfigOption<Boolean> TAG_CREATE_SUCCESS_FILE =
            ConfigOption.key("tag.create-success-file").booleanType().defaultValue(false)
                    .withDescription("Whether a success file is written for each new tag.").noEffectYet(NO_TAGS);

    public static final ConfigOption<String> TAG_CREATION_PERIOD =
            ConfigOption.key("tag.creation-period").oneOf("daily", "hourly", "two-hours").defaultValue("daily")
                    .withDescription("How often automatic tags are created.").noEffectYet(NO_TAGS);

    public static final ConfigOption<Duration> TAG_CREATION_DELAY =
            ConfigOption.key("tag.creation-delay").durationType().defaultValue(Duration.ZERO)
                    .withDescription("How long after a period ends its tag is created, for late data.")
                    .noEffectYet(NO_TAGS);

    public static final ConfigOption<String> TAG_PERIOD_FORMATTER =
            ConfigOption.key("tag.period-formatter")
                    .oneOf("with_dashes", "without_dashes", "without_dashes_and_spaces").defaultValue("with_dashes")
                    .withDescription("Date format of automatic tag names.").noEffectYet(NO_TAGS);

    public static final ConfigOption<Duration> TAG_CREATION_PERIOD_DURATION =
            ConfigOption.key("tag.creation-period-duration").durationType().noDefaultValue()
                    .withDescription("A period length for automatic tags that replaces 'tag.creation-period'.")
                    .noEffectYet(NO_TAGS);

    public static final ConfigOption<Integer> TAG_NUM_RETAINED_MAX =
            ConfigOption.key("tag.num-retained-max").intType().noDefaultValue()
                    .withDescription("Most automatic tags to keep.").checkedBy(OptionChecks.atLeast(1))
                    .noEffectYet(NO_TAGS);

    public static final ConfigOption<Duration> TAG_DEFAULT_TIME_RETAINED =
            ConfigOption.key("tag.default-time-retained").durationType().noDefaultValue()
                    .withDescription("How long a new tag is kept by default: applies to automatic tags and to "
                            + "tags of the latest snapshot the Java API creates (TableTags.createFromLatest); "
                            + "CALL sys.create_tag without 'time_retained' keeps the tag until it is deleted, as "
                            + "in Apache Paimon 1.3.1.").noEffectYet(NO_TAGS);

    public static final ConfigOption<Boolean> TAG_AUTOMATIC_COMPLETION =
            ConfigOption.key("tag.automatic-completion").booleanType().defaultValue(false)
                    .withDescription("Whether missed automatic tags are created later.").noEffectYet(NO_TAGS);

    public static final ConfigOption<String> TAG_BATCH_CUSTOMIZED_NAME =
            ConfigOption.key("tag.batch.customized-name").stringType().noDefaultValue()
                    .withDescription("Name of the tag a batch job creates with 'tag.automatic-creation' = 'batch'.")
                    .noEffectYet(NO_TAGS);

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
                    .withDescription("When the written stream is idle this long, the snapshot watermark advances "
                            + "(for watermark-driven tags).").noEffectYet(NO_TAGS);

    public static final ConfigOption<String> SINK_WATERMARK_TIME_ZONE =
            ConfigOption.key("sink.watermark-time-zone").stringType().defaultValue("UTC")
                    .withDescription("Time zone in which snapshot watermarks are turned into times for tags.")
                    .noEffectYet(NO_TAGS);

    public static final ConfigOption<String> SINK_PROCESS_TIME_ZONE =
            ConfigOption.key("sink.process-time-zone").stringType().noDefaultValue()
                    .withDescription("Time zone of processing time for process-time tags (default: the JVM's).")
                    .noEffectYet(NO_TAGS);

    public static final ConfigOption<String> METASTORE_TAG_TO_PARTITION =
            ConfigOption.key("metastore.tag-to-partition").stringType().noDefaultValue()
                    .withDescription("Show the tags of an unpartitioned table as partitions in a Hive metastore.")
                    .noEffectYet("there is no Hive metastore integration");

    public static final ConfigOption<String> METASTORE_TAG_TO_PARTITION_PREVIEW =
            ConfigOption.key("metastore.tag-to-partition.preview")
                    .oneOf("none", "process-time", "watermark", "batch").defaultValue("none")
                    .withDescription("Preview tags of not yet tagged snapshots in a Hive metastore.")
                    .noEffectYet("there is no Hive metastore integration");
}
