package dev.streamhouse.storage.options;

/** How partition values become directory names (docs/format.md §1.3). */
public final class PartitionOptions {
    private PartitionOptions() {}

    public static final ConfigOption<String> PARTITION_DEFAULT_NAME =
            ConfigOption.key("partition.default-name").stringType().defaultValue("__DEFAULT_PARTITION__")
                    .withDescription("Directory name for a null or blank partition value.").immutable();

    public static final ConfigOption<Boolean> PARTITION_LEGACY_NAME =
            ConfigOption.key("partition.legacy-name").booleanType().defaultValue(true)
                    .withDescription("Render partition values with Java toString of the internal value (a DATE "
                            + "becomes its day number); false renders them as SQL strings.").immutable();

    public static final ConfigOption<Boolean> DYNAMIC_PARTITION_OVERWRITE =
            ConfigOption.key("dynamic-partition-overwrite").booleanType().defaultValue(true)
                    .withDescription("INSERT OVERWRITE of a partitioned table without a static PARTITION clause "
                            + "replaces only the partitions that receive rows; false replaces the whole table.");
}
