package dev.streamhouse.storage.options;

import java.util.Map;

/** Data file format, compression, naming and sizing. */
public final class FileFormatOptions {
    private FileFormatOptions() {}

    public static final ConfigOption<String> FILE_FORMAT =
            ConfigOption.key("file.format").stringType().defaultValue("parquet")
                    .withDescription("Format of new data files (orc, parquet, avro, ...). Only 'parquet' is "
                            + "written; readers pick the format from each file's extension.")
                    .supportedOnly("'parquet' only", v -> v.trim().equalsIgnoreCase("parquet") ? null
                            : "only 'parquet' data files are written (ORC and Avro data files are not)");

    public static final ConfigOption<String> FILE_COMPRESSION =
            ConfigOption.key("file.compression").stringType().defaultValue("zstd")
                    .withDescription("Compression of data files: zstd, snappy, gzip, lz4, lz4_raw or none.")
                    .checkedBy(OptionChecks.oneOfIgnoringCase("zstd", "snappy", "gzip", "lz4", "lz4_raw", "none",
                            "uncompressed"));

    public static final ConfigOption<Integer> ZSTD_LEVEL =
            ConfigOption.key("file.compression.zstd-level").intType().defaultValue(1)
                    .withDescription("Zstandard level for data files and manifests.");

    public static final ConfigOption<MemorySize> TARGET_FILE_SIZE =
            ConfigOption.key("target-file-size").memoryType().noDefaultValue()
                    .withDescription("Data files roll at this size; defaults to 128 mb for primary-key "
                            + "tables and 256 mb for append tables.").checkedBy(OptionChecks.positiveMemory());

    public static final ConfigOption<MemorySize> FILE_BLOCK_SIZE =
            ConfigOption.key("file.block-size").memoryType().noDefaultValue()
                    .withDescription("Parquet row group size; defaults to 128 mb.")
                    .checkedBy(OptionChecks.positiveMemory());

    public static final ConfigOption<String> DATA_FILE_PREFIX =
            ConfigOption.key("data-file.prefix").stringType().defaultValue("data-")
                    .withDescription("Prefix of data file names.");

    public static final ConfigOption<String> CHANGELOG_FILE_PREFIX =
            ConfigOption.key("changelog-file.prefix").stringType().defaultValue("changelog-")
                    .withDescription("Prefix of changelog file names.");

    public static final ConfigOption<Boolean> FILE_SUFFIX_INCLUDE_COMPRESSION =
            ConfigOption.key("file.suffix.include.compression").booleanType().defaultValue(false)
                    .withDescription("Put the compression in data file names, e.g. '.zst.parquet'.")
                    .noEffectYet("new data files are always named '.parquet' (files named either way are read)");

    public static final ConfigOption<Map<String, String>> FILE_FORMAT_PER_LEVEL =
            ConfigOption.key("file.format.per.level").mapType().defaultValue(Map.of())
                    .withDescription("Data file format per LSM level, e.g. '0:avro,3:parquet'.")
                    .noEffectYet("every level is written as Parquet");

    public static final ConfigOption<Map<String, String>> FILE_COMPRESSION_PER_LEVEL =
            ConfigOption.key("file.compression.per.level").mapType().defaultValue(Map.of())
                    .withDescription("Data file compression per LSM level, e.g. '0:lz4,1:zstd'.")
                    .noEffectYet("every level is compressed with 'file.compression'");

    public static final ConfigOption<String> DATA_FILE_PATH_DIRECTORY =
            ConfigOption.key("data-file.path-directory").stringType().noDefaultValue()
                    .withDescription("Sub-directory of the table that holds data files.")
                    .immutable().affectingReads().notSupportedYet("data files are always in the partition "
                            + "directories of the table");

    public static final ConfigOption<String> DATA_FILE_EXTERNAL_PATHS =
            ConfigOption.key("data-file.external-paths").stringType().noDefaultValue()
                    .withDescription("Other locations (comma-separated) where new data files are written.")
                    .notSupportedYet("data files are always written under the table directory");

    public static final ConfigOption<String> DATA_FILE_EXTERNAL_PATHS_STRATEGY =
            ConfigOption.key("data-file.external-paths.strategy").oneOf("none", "specific-fs", "round-robin")
                    .defaultValue("none")
                    .withDescription("How an external path is chosen for a new data file.")
                    .notSupportedYet("data files are always written under the table directory");

    public static final ConfigOption<String> DATA_FILE_EXTERNAL_PATHS_SPECIFIC_FS =
            ConfigOption.key("data-file.external-paths.specific-fs").stringType().noDefaultValue()
                    .withDescription("File system scheme of the external path ('specific-fs' strategy).")
                    .notSupportedYet("data files are always written under the table directory");

    public static final ConfigOption<Boolean> DATA_FILE_THIN_MODE =
            ConfigOption.key("data-file.thin-mode").booleanType().defaultValue(false)
                    .withDescription("Primary-key tables: leave the key columns out of data files (they are "
                            + "read from the value columns). Read here; new files are written in full.")
                    .noEffectYet("new data files are written with their key columns");

    public static final ConfigOption<Boolean> INDEX_FILE_IN_DATA_FILE_DIR =
            ConfigOption.key("index-file-in-data-file-dir").booleanType().defaultValue(false)
                    .withDescription("Keep index files beside the data files instead of in 'index/'.")
                    .immutable().affectingReads().notSupportedYet("index files are always in 'index/'");

    public static final OptionPattern ORC_FORMAT_SETTINGS = OptionPattern.of(
            ConfigOption.key("orc.*").stringType().noDefaultValue()
                    .withDescription("Settings of ORC files.")
                    .noEffectYet("only Parquet data files are written"));

    public static final OptionPattern AVRO_FORMAT_SETTINGS = OptionPattern.of(
            ConfigOption.key("avro.*").stringType().noDefaultValue()
                    .withDescription("Settings of AVRO files.")
                    .noEffectYet("only Parquet data files are written"));

    public static final OptionPattern CSV_FORMAT_SETTINGS = OptionPattern.of(
            ConfigOption.key("csv.*").stringType().noDefaultValue()
                    .withDescription("Settings of CSV files.")
                    .noEffectYet("only Parquet data files are written"));

    public static final OptionPattern JSON_FORMAT_SETTINGS = OptionPattern.of(
            ConfigOption.key("json.*").stringType().noDefaultValue()
                    .withDescription("Settings of JSON files.")
                    .noEffectYet("only Parquet data files are written"));

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
