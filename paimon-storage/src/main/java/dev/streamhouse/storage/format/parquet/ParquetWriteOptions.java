package dev.streamhouse.storage.format.parquet;

import dev.streamhouse.storage.options.FileFormatOptions;
import dev.streamhouse.storage.options.MemorySize;
import dev.streamhouse.storage.options.Options;

import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.column.ParquetProperties.WriterVersion;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;

import java.io.Serializable;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The resolved Parquet writer settings of a table (docs/format.md §8.1): codec, zstd level, row group, page
 * and dictionary sizes, writer version, bloom filters, plus every {@code parquet.*} table option for
 * the Parquet configuration. Immutable and serializable; the Hadoop configuration is built per file.
 */
final class ParquetWriteOptions implements Serializable {
    private static final long serialVersionUID = 1L;
    private static final String ZSTD_LEVEL_KEY = ParquetOptions.ZSTD_LEVEL.key();
    static final String LZ4_JAVA_CLASS = "net.jpountz.lz4.LZ4Factory";

    private final CompressionCodecName codec;
    private final long rowGroupSize;
    private final Options parquetOptions;

    private ParquetWriteOptions(CompressionCodecName codec, long rowGroupSize, Options parquetOptions) {
        this.codec = codec;
        this.rowGroupSize = rowGroupSize;
        this.parquetOptions = parquetOptions;
    }

    /** Resolves the settings from table options; fails on an unknown compression or bad number. */
    static ParquetWriteOptions from(Options tableOptions) {
        Options parquet = new Options();
        tableOptions.toMap().forEach((k, v) -> {
            if (k.startsWith(ParquetOptions.PREFIX)) {
                parquet.set(k, v);
            }
        });
        if (!parquet.containsKey(ZSTD_LEVEL_KEY)) {
            parquet.set(ZSTD_LEVEL_KEY, String.valueOf(tableOptions.get(FileFormatOptions.ZSTD_LEVEL)));
        }
        String compression = parquet.getOptional(ParquetOptions.COMPRESSION)
                .orElse(tableOptions.get(FileFormatOptions.FILE_COMPRESSION));
        MemorySize blockSize = tableOptions.get(FileFormatOptions.FILE_BLOCK_SIZE);
        long rowGroupSize = blockSize != null ? blockSize.bytes() : parquet.get(ParquetOptions.BLOCK_SIZE);
        ParquetWriteOptions resolved = new ParquetWriteOptions(codec(compression), rowGroupSize, parquet);
        resolved.writerVersion(); // fail early on a bad value
        return resolved;
    }

    /** Maps a {@code file.compression} value to a Parquet codec. */
    static CompressionCodecName codec(String compression) {
        String name = compression.trim().toLowerCase(Locale.ROOT);
        switch (name) {
            case "none":
            case "uncompressed":
                return CompressionCodecName.UNCOMPRESSED;
            case "zstd":
                return CompressionCodecName.ZSTD;
            case "snappy":
                return CompressionCodecName.SNAPPY;
            case "gzip":
                return CompressionCodecName.GZIP;
            case "lz4":
                requireLz4Java(compression);
                return CompressionCodecName.LZ4;
            case "lz4_raw":
                return CompressionCodecName.LZ4_RAW;
            default:
                throw new IllegalArgumentException("Cannot configure Parquet compression: unknown codec '"
                        + compression + "'; use zstd, snappy, gzip, lz4, lz4_raw or none");
        }
    }

    /** Parquet's LZ4 codec is Hadoop's, which needs lz4-java at runtime; fail early and clearly without it. */
    private static void requireLz4Java(String compression) {
        try {
            Class.forName(LZ4_JAVA_CLASS, false, ParquetWriteOptions.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalArgumentException("Cannot configure Parquet compression '" + compression
                    + "': Hadoop's LZ4 codec needs lz4-java (" + LZ4_JAVA_CLASS + ") on the classpath, which is "
                    + "missing; add org.lz4:lz4-java or use zstd, snappy or gzip", e);
        }
    }

    CompressionCodecName codec() {
        return codec;
    }

    long rowGroupSize() {
        return rowGroupSize;
    }

    private WriterVersion writerVersion() {
        String version = parquetOptions.get(ParquetOptions.WRITER_VERSION);
        try {
            return WriterVersion.fromString(version);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("Cannot configure Parquet writer: unknown '"
                    + ParquetOptions.WRITER_VERSION.key() + "' value '" + version + "'; use v1 or v2", e);
        }
    }

    /** A fresh Hadoop configuration holding the {@code parquet.*} options (no Hadoop defaults loaded). */
    Configuration hadoopConfiguration() {
        Configuration conf = new Configuration(false);
        parquetOptions.toMap().forEach(conf::set);
        return conf;
    }

    /** Applies all settings to a Parquet writer builder. */
    <B extends ParquetWriter.Builder<?, B>> B applyTo(B builder) {
        builder.withConf(hadoopConfiguration())
                .withCompressionCodec(codec)
                .withRowGroupSize(rowGroupSize)
                .withPageSize(parquetOptions.get(ParquetOptions.PAGE_SIZE))
                .withPageRowCountLimit(parquetOptions.get(ParquetOptions.PAGE_ROW_COUNT_LIMIT))
                .withDictionaryPageSize(parquetOptions.get(ParquetOptions.DICTIONARY_PAGE_SIZE))
                .withMaxPaddingSize(parquetOptions.get(ParquetOptions.MAX_PADDING))
                .withDictionaryEncoding(parquetOptions.get(ParquetOptions.ENABLE_DICTIONARY))
                .withValidation(parquetOptions.get(ParquetOptions.VALIDATION))
                .withWriterVersion(writerVersion())
                .withBloomFilterEnabled(parquetOptions.get(ParquetOptions.BLOOM_FILTER_ENABLED));
        applyColumnOptions(builder);
        return builder;
    }

    private <B extends ParquetWriter.Builder<?, B>> void applyColumnOptions(B builder) {
        Map<String, String> sorted = new TreeMap<>(parquetOptions.toMap());
        String dictionaryPrefix = ParquetOptions.ENABLE_DICTIONARY.key() + "#";
        String bloomPrefix = ParquetOptions.BLOOM_FILTER_ENABLED.key() + "#";
        for (Map.Entry<String, String> e : sorted.entrySet()) {
            String key = e.getKey();
            String value = e.getValue().trim();
            try {
                if (key.startsWith(dictionaryPrefix)) {
                    builder.withDictionaryEncoding(key.substring(dictionaryPrefix.length()), parseBoolean(value));
                } else if (key.startsWith(bloomPrefix)) {
                    builder.withBloomFilterEnabled(key.substring(bloomPrefix.length()), parseBoolean(value));
                } else if (key.startsWith(ParquetOptions.BLOOM_FILTER_NDV_PREFIX)) {
                    builder.withBloomFilterNDV(
                            key.substring(ParquetOptions.BLOOM_FILTER_NDV_PREFIX.length()), Long.parseLong(value));
                } else if (key.startsWith(ParquetOptions.BLOOM_FILTER_FPP_PREFIX)) {
                    builder.withBloomFilterFPP(
                            key.substring(ParquetOptions.BLOOM_FILTER_FPP_PREFIX.length()), Double.parseDouble(value));
                }
            } catch (IllegalArgumentException ex) {
                throw new IllegalArgumentException(
                        "Cannot configure Parquet writer: invalid value '" + value + "' for option '" + key + "'", ex);
            }
        }
    }

    private static boolean parseBoolean(String value) {
        if (value.equalsIgnoreCase("true")) {
            return true;
        } else if (value.equalsIgnoreCase("false")) {
            return false;
        }
        throw new IllegalArgumentException("not a boolean");
    }
}
