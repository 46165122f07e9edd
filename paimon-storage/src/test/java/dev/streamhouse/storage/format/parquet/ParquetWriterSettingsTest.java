package dev.streamhouse.storage.format.parquet;

import static dev.streamhouse.storage.types.DataTypes.BIGINT;
import static dev.streamhouse.storage.types.DataTypes.FIELD;
import static dev.streamhouse.storage.types.DataTypes.STRING;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.format.FormatReaderFactory;
import dev.streamhouse.storage.format.FormatWriter;
import dev.streamhouse.storage.format.FormatWriterFactory;
import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.predicate.PredicateBuilder;
import dev.streamhouse.storage.types.RowType;

import org.apache.parquet.column.Encoding;
import org.apache.parquet.hadoop.metadata.BlockMetaData;
import org.apache.parquet.hadoop.metadata.ColumnChunkMetaData;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.hadoop.metadata.ParquetMetadata;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.ArrayList;
import java.util.List;

class ParquetWriterSettingsTest {
    private static final RowType TYPE = new RowType(List.of(FIELD(0, "id", BIGINT()), FIELD(1, "s", STRING())));

    @TempDir
    java.nio.file.Path tmp;

    private static List<GenericRow> rows(int n) {
        List<GenericRow> rows = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            rows.add(GenericRow.of((long) i, BinaryString.fromString("some fairly compressible text " + (i % 100))));
        }
        return rows;
    }

    private ParquetMetadata writeAndFooter(String name, Options options, List<GenericRow> rows) throws Exception {
        Path path = new Path(tmp.resolve(name).toString());
        ParquetTestFiles.write(path, TYPE, options, rows);
        assertThat(ParquetTestFiles.read(path, TYPE, null)).containsExactlyElementsOf(rows);
        return ParquetTestFiles.footer(path);
    }

    private static List<ColumnChunkMetaData> chunks(ParquetMetadata footer) {
        return footer.getBlocks().stream().map(BlockMetaData::getColumns).flatMap(List::stream).toList();
    }

    @Test
    void defaultsMatchPaimon() throws Exception {
        ParquetMetadata footer = writeAndFooter("defaults.parquet", new Options(), rows(1_000));

        assertThat(chunks(footer)).isNotEmpty()
                .allSatisfy(c -> assertThat(c.getCodec()).isEqualTo(CompressionCodecName.ZSTD));
        assertThat(footer.getFileMetaData().getKeyValueMetaData()).isEmpty();
        assertThat(footer.getFileMetaData().getCreatedBy()).startsWith("parquet-mr version 1.15.2");
        assertThat(footer.getFileMetaData().getSchema().getName()).isEqualTo("paimon_schema");
        // dictionary on, v1 pages: the string column is dictionary encoded
        assertThat(chunks(footer).get(1).getEncodings()).contains(Encoding.PLAIN_DICTIONARY);
    }

    @ParameterizedTest
    @CsvSource({"zstd,ZSTD", "snappy,SNAPPY", "gzip,GZIP", "lz4_raw,LZ4_RAW", "none,UNCOMPRESSED",
        "UNCOMPRESSED,UNCOMPRESSED"})
    void compressionOptionSelectsTheCodec(String option, CompressionCodecName expected) throws Exception {
        ParquetMetadata footer = writeAndFooter(option + ".parquet", Options.of("file.compression", option), rows(500));
        assertThat(chunks(footer)).allSatisfy(c -> assertThat(c.getCodec()).isEqualTo(expected));
    }

    @Test
    void lz4NeedsLz4JavaAndSaysSo() throws Exception {
        boolean lz4JavaPresent;
        try {
            Class.forName(ParquetWriteOptions.LZ4_JAVA_CLASS);
            lz4JavaPresent = true;
        } catch (ClassNotFoundException e) {
            lz4JavaPresent = false;
        }
        if (lz4JavaPresent) {
            ParquetMetadata footer = writeAndFooter("lz4.parquet", Options.of("file.compression", "lz4"), rows(100));
            assertThat(chunks(footer)).allSatisfy(c -> assertThat(c.getCodec()).isEqualTo(CompressionCodecName.LZ4));
        } else {
            assertThatThrownBy(() -> new ParquetFileFormat().writerFactory(TYPE, Options.of("file.compression", "lz4")))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("lz4-java");
        }
    }

    @Test
    void parquetCompressionOverridesFileCompression() throws Exception {
        ParquetMetadata footer = writeAndFooter("override.parquet",
                Options.of("file.compression", "zstd", "parquet.compression", "snappy"), rows(100));
        assertThat(chunks(footer)).allSatisfy(c -> assertThat(c.getCodec()).isEqualTo(CompressionCodecName.SNAPPY));
    }

    @Test
    void zstdLevelReachesTheCodec() throws Exception {
        List<GenericRow> rows = rows(20_000);
        long level1 = size(writeAndFooter("l1.parquet", Options.of("file.compression.zstd-level", "1"), rows));
        long level19 = size(writeAndFooter("l19.parquet", Options.of("file.compression.zstd-level", "19"), rows));
        assertThat(level19).isNotEqualTo(level1);
    }

    private static long size(ParquetMetadata footer) {
        return chunks(footer).stream().mapToLong(ColumnChunkMetaData::getTotalSize).sum();
    }

    @Test
    void parquetOptionsPassThrough() throws Exception {
        ParquetMetadata noDictionary = writeAndFooter("nodict.parquet",
                Options.of("parquet.enable.dictionary", "false"), rows(1_000));
        assertThat(chunks(noDictionary)).allSatisfy(c -> assertThat(c.getEncodings())
                .doesNotContain(Encoding.PLAIN_DICTIONARY, Encoding.RLE_DICTIONARY));

        ParquetMetadata otherColumnOff = writeAndFooter("nodict-id.parquet",
                Options.of("parquet.enable.dictionary#id", "false"), rows(1_000));
        assertThat(chunks(otherColumnOff).get(1).getEncodings()).contains(Encoding.PLAIN_DICTIONARY);
        ParquetMetadata thisColumnOff = writeAndFooter("nodict-s.parquet",
                Options.of("parquet.enable.dictionary#s", "false"), rows(1_000));
        assertThat(chunks(thisColumnOff).get(1).getEncodings()).doesNotContain(Encoding.PLAIN_DICTIONARY);

        ParquetMetadata smallPages = writeAndFooter("rowlimit.parquet",
                Options.of("parquet.page.row.count.limit", "100"), rows(1_000));
        ParquetMetadata defaultPages = writeAndFooter("rowlimit-default.parquet", new Options(), rows(1_000));
        assertThat(size(smallPages)).isGreaterThan(size(defaultPages)); // ten pages instead of one
    }

    @Test
    void unknownCompressionIsRejected() {
        assertThatThrownBy(() -> new ParquetFileFormat().writerFactory(TYPE, Options.of("file.compression", "zip")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'zip'");
    }

    @Test
    void estimatedLengthGrowsAndEndsAtTheFileSize() throws Exception {
        Path path = new Path(tmp.resolve("length.parquet").toString());
        FormatWriter writer = new ParquetFileFormat().writerFactory(TYPE, new Options())
                .create(LocalFileIO.INSTANCE.newOutputStream(path, false));
        long before = writer.estimatedLength();
        for (InternalRow row : rows(10_000)) {
            writer.add(row);
        }
        long during = writer.estimatedLength();
        writer.close();

        assertThat(during).isGreaterThan(before);
        assertThat(writer.estimatedLength()).isEqualTo(LocalFileIO.INSTANCE.size(path));
    }

    @Test
    void factoriesSurviveJavaSerialization() throws Exception {
        Options options = Options.of("file.compression", "gzip", "parquet.page.size", "4096");
        FormatWriterFactory writers = roundTrip(new ParquetFileFormat().writerFactory(TYPE, options));
        FormatReaderFactory readers = roundTrip(new ParquetFileFormat()
                .readerFactory(TYPE, new PredicateBuilder(TYPE).greaterThan(0, 10L)));

        Path path = new Path(tmp.resolve("serialized.parquet").toString());
        FormatWriter writer = writers.create(LocalFileIO.INSTANCE.newOutputStream(path, false));
        for (InternalRow row : rows(20)) {
            writer.add(row);
        }
        writer.close();
        assertThat(ParquetTestFiles.footer(path).getBlocks().get(0).getColumns().get(0).getCodec())
                .isEqualTo(CompressionCodecName.GZIP);
        List<InternalRow> read = new ArrayList<>();
        readers.createReader(LocalFileIO.INSTANCE, path, LocalFileIO.INSTANCE.size(path)).forEachRemaining(read::add);
        assertThat(read).hasSize(20);
    }

    @SuppressWarnings("unchecked")
    private static <T> T roundTrip(T object) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(object);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            return (T) in.readObject();
        }
    }
}
