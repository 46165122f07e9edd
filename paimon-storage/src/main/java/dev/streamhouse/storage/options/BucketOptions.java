package dev.streamhouse.storage.options;

/** How rows are distributed over buckets (docs/format.md §7). */
public final class BucketOptions {
    private BucketOptions() {}

    public static final ConfigOption<Integer> BUCKET =
            ConfigOption.key("bucket").intType().defaultValue(-1)
                    .withDescription("Number of buckets; -1 means dynamic buckets (primary-key tables) or "
                            + "bucket-unaware (append tables); -2 postpones bucketing until compaction.")
                    .checkedBy(v -> v > 0 || v == -1 || v == -2 ? null
                            : "it must be a positive bucket count, -1 (dynamic/unaware) or -2 (postpone)")
                    .supportedOnly("positive counts and -1; -2 (postpone) refused", v -> v != -2 ? null : "postpone buckets (-2) are not implemented")
                    .affectingReads();

    public static final ConfigOption<String> BUCKET_KEY =
            ConfigOption.key("bucket-key").stringType().noDefaultValue()
                    .withDescription("Comma-separated bucket columns; defaults to the primary key minus the "
                            + "partition keys. Required for append tables with a fixed bucket count.").immutable();

    public static final ConfigOption<String> BUCKET_FUNCTION_TYPE =
            ConfigOption.key("bucket-function.type").stringType().defaultValue("default")
                    .withDescription("'default' (murmur hash of the bucket key row) or 'mod' (single integer key).")
                    .checkedBy(OptionChecks.oneOfIgnoringCase("default", "mod")).immutable();

    public static final ConfigOption<Boolean> BUCKET_APPEND_ORDERED =
            ConfigOption.key("bucket-append-ordered").booleanType().defaultValue(true)
                    .withDescription("Append tables with fixed buckets: read each bucket in write order.")
                    .noEffectYet("buckets of append tables are always read in write order");
}
