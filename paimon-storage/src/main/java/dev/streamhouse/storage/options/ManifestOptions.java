package dev.streamhouse.storage.options;

/** Manifest files and their merging during commits (FORMAT §5.7). */
public final class ManifestOptions {
    private ManifestOptions() {}

    public static final ConfigOption<String> MANIFEST_FORMAT =
            ConfigOption.key("manifest.format").stringType().defaultValue("avro")
                    .withDescription("Format of manifest files; only 'avro' is supported.");

    public static final ConfigOption<String> MANIFEST_COMPRESSION =
            ConfigOption.key("manifest.compression").stringType().defaultValue("zstd")
                    .withDescription("Compression of manifest files: zstd, snappy, deflate or none.");

    public static final ConfigOption<MemorySize> MANIFEST_TARGET_FILE_SIZE =
            ConfigOption.key("manifest.target-file-size").memoryType().defaultValue(MemorySize.ofMebiBytes(8))
                    .withDescription("Manifest files roll at this size; merged manifests aim for it.");

    public static final ConfigOption<Integer> MANIFEST_MERGE_MIN_COUNT =
            ConfigOption.key("manifest.merge-min-count").intType().defaultValue(30)
                    .withDescription("Small manifests are merged once at least this many accumulate.");

    public static final ConfigOption<MemorySize> MANIFEST_FULL_COMPACTION_SIZE =
            ConfigOption.key("manifest.full-compaction-threshold-size").memoryType()
                    .defaultValue(MemorySize.ofMebiBytes(16))
                    .withDescription("When manifests holding deletes or small manifests reach this total "
                            + "size, all affected manifests are rewritten without the deleted entries.");
}
