package dev.streamhouse.storage.options;

/** Data file format, compression, naming and sizing. */
public final class FileFormatOptions {
    private FileFormatOptions() {}

    public static final ConfigOption<String> FILE_FORMAT =
            ConfigOption.key("file.format").stringType().defaultValue("parquet")
                    .withDescription("Format of new data files. Only 'parquet' is written; readers pick the "
                            + "format from each file's extension.");

    public static final ConfigOption<String> FILE_COMPRESSION =
            ConfigOption.key("file.compression").stringType().defaultValue("zstd")
                    .withDescription("Compression of data files: zstd, snappy, gzip, lz4 or none.");

    public static final ConfigOption<Integer> ZSTD_LEVEL =
            ConfigOption.key("file.compression.zstd-level").intType().defaultValue(1)
                    .withDescription("Zstandard level for data files and manifests.");

    public static final ConfigOption<MemorySize> TARGET_FILE_SIZE =
            ConfigOption.key("target-file-size").memoryType().noDefaultValue()
                    .withDescription("Data files roll at this size; defaults to 128 mb for primary-key "
                            + "tables and 256 mb for append tables.");

    public static final ConfigOption<MemorySize> FILE_BLOCK_SIZE =
            ConfigOption.key("file.block-size").memoryType().noDefaultValue()
                    .withDescription("Parquet row group size; defaults to 128 mb.");

    public static final ConfigOption<String> DATA_FILE_PREFIX =
            ConfigOption.key("data-file.prefix").stringType().defaultValue("data-")
                    .withDescription("Prefix of data file names.");

    public static final ConfigOption<String> CHANGELOG_FILE_PREFIX =
            ConfigOption.key("changelog-file.prefix").stringType().defaultValue("changelog-")
                    .withDescription("Prefix of changelog file names.");

    public static final ConfigOption<Boolean> FILE_SUFFIX_INCLUDE_COMPRESSION =
            ConfigOption.key("file.suffix.include.compression").booleanType().defaultValue(false)
                    .withDescription("Put the compression in data file names, e.g. '.zst.parquet'.");

    public static final MemorySize DEFAULT_PK_TARGET_FILE_SIZE = MemorySize.ofMebiBytes(128);
    public static final MemorySize DEFAULT_APPEND_TARGET_FILE_SIZE = MemorySize.ofMebiBytes(256);
    public static final MemorySize DEFAULT_BLOCK_SIZE = MemorySize.ofMebiBytes(128);

    /** The effective target file size for a table with or without a primary key. */
    public static long targetFileSizeBytes(Options options, boolean hasPrimaryKey) {
        MemorySize configured = options.get(TARGET_FILE_SIZE);
        if (configured != null) {
            return configured.bytes();
        }
        return (hasPrimaryKey ? DEFAULT_PK_TARGET_FILE_SIZE : DEFAULT_APPEND_TARGET_FILE_SIZE).bytes();
    }
}
