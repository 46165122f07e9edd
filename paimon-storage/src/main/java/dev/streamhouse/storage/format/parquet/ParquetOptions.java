package dev.streamhouse.storage.format.parquet;

import dev.streamhouse.storage.options.ConfigOption;
import dev.streamhouse.storage.options.OptionPattern;

/**
 * Parquet writer options a table may set (keys as in parquet-mr and Paimon). Every table option
 * starting with {@code parquet.} also reaches the Parquet configuration unchanged. Per-column
 * variants are spelled {@code <key>#<column>} for {@link #ENABLE_DICTIONARY},
 * {@link #BLOOM_FILTER_ENABLED}, {@code parquet.bloom.filter.expected.ndv} and
 * {@code parquet.bloom.filter.fpp}.
 */
public final class ParquetOptions {
    private ParquetOptions() {}

    /** Prefix of the options passed through to the Parquet configuration. */
    public static final String PREFIX = "parquet.";

    public static final ConfigOption<Long> BLOCK_SIZE =
            ConfigOption.key("parquet.block.size").longType().defaultValue(128L << 20)
                    .withDescription("Row group size in bytes; 'file.block-size' takes precedence when set.");

    public static final ConfigOption<Integer> PAGE_SIZE =
            ConfigOption.key("parquet.page.size").intType().defaultValue(1 << 20)
                    .withDescription("Data page size in bytes.");

    public static final ConfigOption<Integer> DICTIONARY_PAGE_SIZE =
            ConfigOption.key("parquet.dictionary.page.size").intType().defaultValue(1 << 20)
                    .withDescription("Dictionary page size in bytes.");

    public static final ConfigOption<Integer> PAGE_ROW_COUNT_LIMIT =
            ConfigOption.key("parquet.page.row.count.limit").intType().defaultValue(20_000)
                    .withDescription("Most rows in one data page.");

    public static final ConfigOption<Integer> MAX_PADDING =
            ConfigOption.key("parquet.writer.max-padding").intType().defaultValue(8 << 20)
                    .withDescription("Most padding bytes used to align row groups on block file systems.");

    public static final ConfigOption<Boolean> ENABLE_DICTIONARY =
            ConfigOption.key("parquet.enable.dictionary").booleanType().defaultValue(true)
                    .withDescription("Dictionary-encode columns.");

    public static final ConfigOption<Boolean> VALIDATION =
            ConfigOption.key("parquet.validation").booleanType().defaultValue(false)
                    .withDescription("Validate written records against the schema (slow).");

    public static final ConfigOption<String> WRITER_VERSION =
            ConfigOption.key("parquet.writer.version").stringType().defaultValue("v1")
                    .withDescription("Data page version: v1 (PARQUET_1_0) or v2 (PARQUET_2_0).");

    public static final ConfigOption<Boolean> BLOOM_FILTER_ENABLED =
            ConfigOption.key("parquet.bloom.filter.enabled").booleanType().defaultValue(false)
                    .withDescription("Write bloom filters for all columns.");

    public static final ConfigOption<String> COMPRESSION =
            ConfigOption.key("parquet.compression").stringType().noDefaultValue()
                    .withDescription("Overrides 'file.compression' for Parquet files.");

    public static final ConfigOption<Integer> ZSTD_LEVEL =
            ConfigOption.key("parquet.compression.codec.zstd.level").intType().noDefaultValue()
                    .withDescription("Overrides 'file.compression.zstd-level' for Parquet files.");

    public static final OptionPattern PASS_THROUGH = OptionPattern.of(
            ConfigOption.key("parquet.*").stringType().noDefaultValue()
                    .withDescription("Any other parquet-mr writer setting, passed to the Parquet configuration "
                            + "unchanged (e.g. 'parquet.bloom.filter.fpp#<column>')."));

    static final String BLOOM_FILTER_NDV_PREFIX = "parquet.bloom.filter.expected.ndv#";
    static final String BLOOM_FILTER_FPP_PREFIX = "parquet.bloom.filter.fpp#";
}
