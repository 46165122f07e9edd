package dev.streamhouse.storage.options;

/** Manifest files and their merging during commits (docs/format.md §5.7). */
public final class ManifestOptions {
    private ManifestOptions() {}

    public static final ConfigOption<String> MANIFEST_FORMAT =
            ConfigOption.key("manifest.format").stringType().defaultValue("avro")
                    .withDescription("Format of manifest files (avro, parquet, orc); only 'avro' is supported.")
                    .supportedOnly("'avro' only", v -> v.trim().equalsIgnoreCase("avro") ? null
                            : "only Avro manifests are written and read").affectingReads();

    public static final ConfigOption<String> MANIFEST_COMPRESSION =
            ConfigOption.key("manifest.compression").stringType().defaultValue("zstd")
                    .withDescription("Compression of manifest files: zstd, snappy, deflate or none.")
                    .checkedBy(OptionChecks.oneOfIgnoringCase("zstd", "zstandard", "snappy", "deflate", "none",
                            "null", "uncompressed"));

    public static final ConfigOption<MemorySize> MANIFEST_TARGET_FILE_SIZE =
            ConfigOption.key("manifest.target-file-size").memoryType().defaultValue(MemorySize.ofMebiBytes(8))
                    .withDescription("Manifest files roll at this size; merged manifests aim for it.")
                    .checkedBy(OptionChecks.positiveMemory());

    public static final ConfigOption<Integer> MANIFEST_MERGE_MIN_COUNT =
            ConfigOption.key("manifest.merge-min-count").intType().defaultValue(30)
                    .withDescription("Small manifests are merged once at least this many accumulate.")
                    .checkedBy(OptionChecks.atLeast(1));

    public static final ConfigOption<MemorySize> MANIFEST_FULL_COMPACTION_SIZE =
            ConfigOption.key("manifest.full-compaction-threshold-size").memoryType()
                    .defaultValue(MemorySize.ofMebiBytes(16))
                    .withDescription("When manifests holding deletes or small manifests reach this total "
                            + "size, all affected manifests are rewritten without the deleted entries.");

    public static final ConfigOption<Boolean> MANIFEST_DELETE_FILE_DROP_STATS =
            ConfigOption.key("manifest.delete-file-drop-stats").booleanType().defaultValue(false)
                    .withDescription("Leave the statistics out of DELETE entries of manifests.")
                    .noEffectYet("DELETE entries keep their statistics");
}
