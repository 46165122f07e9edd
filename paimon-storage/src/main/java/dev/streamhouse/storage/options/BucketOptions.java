package dev.streamhouse.storage.options;

/** How rows are distributed over buckets (FORMAT §7). */
public final class BucketOptions {
    private BucketOptions() {}

    public static final ConfigOption<Integer> BUCKET =
            ConfigOption.key("bucket").intType().defaultValue(-1)
                    .withDescription("Number of buckets; -1 means dynamic buckets (primary-key tables) or "
                            + "bucket-unaware (append tables).");

    public static final ConfigOption<String> BUCKET_KEY =
            ConfigOption.key("bucket-key").stringType().noDefaultValue()
                    .withDescription("Comma-separated bucket columns; defaults to the primary key minus the "
                            + "partition keys. Required for append tables with a fixed bucket count.");

    public static final ConfigOption<String> BUCKET_FUNCTION_TYPE =
            ConfigOption.key("bucket-function.type").stringType().defaultValue("default")
                    .withDescription("'default' (murmur hash of the bucket key row) or 'mod' (single integer key).");
}
