package dev.streamhouse.storage.manifest;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.stats.SimpleStats;
import org.apache.avro.Schema;
import org.apache.avro.file.DataFileStream;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayInputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static dev.streamhouse.storage.manifest.ManifestTestData.PARTITION_TYPE;
import static dev.streamhouse.storage.manifest.ManifestTestData.add;
import static dev.streamhouse.storage.manifest.ManifestTestData.delete;
import static dev.streamhouse.storage.manifest.ManifestTestData.fullFile;
import static dev.streamhouse.storage.manifest.ManifestTestData.minimalFile;
import static dev.streamhouse.storage.manifest.ManifestTestData.partition;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ManifestFileTest {
    @TempDir
    java.nio.file.Path tmp;

    private final TestFileIO fileIO = new TestFileIO();
    private Path tableRoot;
    private Path manifestDir;

    @BeforeEach
    void setUp() {
        tableRoot = new Path(tmp.toString() + "/db.db/t");
        manifestDir = new Path(tableRoot, "manifest");
    }

    private ManifestFile manifestFile(String compression, long target) {
        return new ManifestFile(fileIO, manifestDir, PARTITION_TYPE, compression, 1, target);
    }

    private ManifestFile manifestFile() {
        return manifestFile("zstd", 8 << 20);
    }

    @Test
    void roundTripsEveryComponentSetAndEveryNullableNull() throws Exception {
        List<ManifestEntry> entries = List.of(
                add(partition("2024-01-01", 1), 0, fullFile("data-a-0.parquet", 0, 0)),
                add(partition(null, null), 3, minimalFile("data-b-1.parquet", 5, 2)),
                delete(partition("2024-01-02-long-value", -7), 1, fullFile("data-c-2.parquet", 2, 1)));
        ManifestFile mf = manifestFile();
        List<ManifestFileMeta> metas = mf.write(entries);

        assertThat(metas).hasSize(1);
        ManifestFileMeta meta = metas.get(0);
        assertThat(mf.read(meta.fileName(), meta.fileSize())).isEqualTo(entries);
        assertThat(mf.read(meta.fileName(), null)).isEqualTo(entries);
    }

    @Test
    void computesTheManifestListRecord() throws Exception {
        List<ManifestEntry> entries = List.of(
                add(partition("b", 5), 2, minimalFile("f1", 0, 1)),
                add(partition("a", 9), 0, minimalFile("f2", 3, 4)),
                delete(partition(null, 1), 7, minimalFile("f3", 1, 2)),
                add(partition("c", null), 1, minimalFile("f4", 0, 0)));
        ManifestFile mf = manifestFile();
        ManifestFileMeta meta = mf.write(entries).get(0);

        assertThat(meta.fileName()).matches("manifest-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}-0");
        assertThat(meta.fileSize()).isEqualTo(fileIO.size(mf.path(meta.fileName())));
        assertThat(meta.numAddedFiles()).isEqualTo(3);
        assertThat(meta.numDeletedFiles()).isEqualTo(1);
        assertThat(meta.schemaId()).isEqualTo(4);
        assertThat(meta.minBucket()).isEqualTo(0);
        assertThat(meta.maxBucket()).isEqualTo(7);
        assertThat(meta.minLevel()).isEqualTo(0);
        assertThat(meta.maxLevel()).isEqualTo(3);
        assertThat(meta.partitionStats()).isEqualTo(new SimpleStats(partition("a", 1), partition("c", 9), new Long[] {1L, 1L}));

        ManifestFileMeta second = mf.write(entries.subList(0, 1)).get(0);
        assertThat(second.fileName()).isEqualTo(meta.fileName().substring(0, meta.fileName().length() - 1) + "1");
        assertThat(second.partitionStats()).isEqualTo(new SimpleStats(partition("b", 5), partition("b", 5), new Long[] {0L, 0L}));
    }

    @Test
    void allNullPartitionColumnHasNullMinAndMax() throws Exception {
        ManifestFileMeta meta = manifestFile().write(List.of(add(partition(null, 3), 0, minimalFile("f", 0, 0)))).get(0);
        assertThat(meta.partitionStats().minValues()).isEqualTo(partition(null, 3));
        assertThat(meta.partitionStats().maxValues()).isEqualTo(partition(null, 3));
        assertThat(meta.partitionStats().nullCounts()).containsExactly(1L, 0L);
    }

    @Test
    void writesNoFileForNoEntries() throws Exception {
        assertThat(manifestFile().write(List.of())).isEmpty();
        assertThat(fileIO.list(manifestDir)).isEmpty();
    }

    @Test
    void rollsAtTheTargetSize() throws Exception {
        List<ManifestEntry> entries = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            entries.add(add(partition("2024-01-" + (i % 30), i % 7), i % 4, fullFile("data-" + i + ".parquet", i % 3, i % 5)));
        }
        long target = 4096;
        ManifestFile mf = manifestFile("zstd", target);
        List<ManifestFileMeta> metas = mf.write(entries);

        assertThat(metas.size()).isGreaterThan(3);
        List<ManifestEntry> readBack = new ArrayList<>();
        for (int i = 0; i < metas.size(); i++) {
            ManifestFileMeta m = metas.get(i);
            assertThat(m.fileName()).endsWith("-" + i);
            assertThat(m.fileSize()).isEqualTo(fileIO.size(mf.path(m.fileName())));
            if (i < metas.size() - 1) {
                assertThat(m.fileSize()).isGreaterThanOrEqualTo(target);
            }
            List<ManifestEntry> part = mf.read(m.fileName(), m.fileSize());
            assertThat(m.numAddedFiles()).isEqualTo(part.size());
            readBack.addAll(part);
        }
        assertThat(readBack).isEqualTo(entries);
    }

    @ParameterizedTest
    @ValueSource(strings = {"zstd", "snappy", "deflate", "none"})
    void supportsEveryCodec(String compression) throws Exception {
        List<ManifestEntry> entries = List.of(add(partition("x", 1), 0, fullFile("f", 0, 0)));
        ManifestFile mf = manifestFile(compression, 8 << 20);
        ManifestFileMeta meta = mf.write(entries).get(0);
        assertThat(mf.read(meta.fileName(), meta.fileSize())).isEqualTo(entries);
        String expectedCodec = compression.equals("zstd") ? "zstandard" : compression.equals("none") ? "null" : compression;
        try (DataFileStream<GenericRecord> s = open(mf.path(meta.fileName()))) {
            assertThat(s.getMetaString("avro.codec")).isEqualTo(expectedCodec);
            assertThat(s.getMetaKeys()).containsExactlyInAnyOrder("avro.schema", "avro.codec");
            assertThat(s.getMetaString("avro.schema")).isEqualTo(ManifestSchemasTest.MANIFEST_ENTRY);
        }
    }

    @Test
    void rejectsUnknownCompression() {
        assertThatThrownBy(() -> manifestFile("lz4", 100)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'manifest.compression' = 'lz4'");
    }

    @Test
    void plainAvroDecodesTheRecordsWithTheSpecSchema() throws Exception {
        ManifestEntry entry = add(partition("2024-01-01", 2), 3, fullFile("data-x.parquet", 4, 6));
        ManifestFile mf = manifestFile();
        ManifestFileMeta meta = mf.write(List.of(entry)).get(0);
        Schema spec = new Schema.Parser().parse(ManifestSchemasTest.MANIFEST_ENTRY);
        byte[] bytes = fileIO.readAllBytes(mf.path(meta.fileName()));
        try (DataFileStream<GenericRecord> s = new DataFileStream<>(new ByteArrayInputStream(bytes),
                new GenericDatumReader<>(spec))) {
            GenericRecord r = s.next();
            assertThat(r.get("_VERSION")).isEqualTo(2);
            assertThat(r.get("_KIND")).isEqualTo(0);
            assertThat(bytes((ByteBuffer) r.get("_PARTITION"))).isEqualTo(entry.partition().toSerializedBytes());
            assertThat(r.get("_BUCKET")).isEqualTo(3);
            assertThat(r.get("_TOTAL_BUCKETS")).isEqualTo(4);
            GenericRecord f = (GenericRecord) r.get("_FILE");
            assertThat(f.get("_FILE_NAME").toString()).isEqualTo("data-x.parquet");
            assertThat(f.get("_LEVEL")).isEqualTo(4);
            assertThat(f.get("_CREATION_TIME")).isEqualTo(1700000000123L);
            assertThat(f.get("_FILE_SOURCE")).isEqualTo(1);
            assertThat(f.get("_FIRST_ROW_ID")).isEqualTo(77L);
            assertThat(((GenericRecord) f.get("_VALUE_STATS")).get("_NULL_COUNTS")).asList().containsExactly(3L, null);
            assertThat(s.hasNext()).isFalse();
        }
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] out = new byte[b.remaining()];
        b.duplicate().get(out);
        return out;
    }

    private DataFileStream<GenericRecord> open(Path path) throws IOException {
        return new DataFileStream<>(new ByteArrayInputStream(fileIO.readAllBytes(path)), new GenericDatumReader<>());
    }

    @Test
    void readsManifestsOfOlderLayoutsWithoutNewerNullableFields() throws Exception {
        String oldFileSchema = ManifestSchemasTest.MANIFEST_ENTRY
                .replace(",{\"name\":\"_EXTERNAL_PATH\",\"type\":[\"null\",\"string\"],\"default\":null}", "")
                .replace(",{\"name\":\"_FIRST_ROW_ID\",\"type\":[\"null\",\"long\"],\"default\":null}", "")
                .replace(",{\"name\":\"_WRITE_COLS\",\"type\":[\"null\",{\"type\":\"array\",\"items\":\"string\"}],\"default\":null}", "")
                .replace(",{\"name\":\"_VALUE_STATS_COLS\",\"type\":[\"null\",{\"type\":\"array\",\"items\":\"string\"}],\"default\":null}", "");
        Schema schema = new Schema.Parser().parse(oldFileSchema);
        assertThat(schema.getField("_FILE").schema().getFields()).hasSize(16);
        DataFileMeta file = fullFile("old.parquet", 1, 0);
        ManifestEntry entry = add(partition("d", 1), 2, file);
        GenericRecord record = AvroTestFiles.entryRecord(schema, entry);
        Path path = new Path(manifestDir, "manifest-old-0");
        AvroTestFiles.write(fileIO, path, schema, List.of(record));

        List<ManifestEntry> read = manifestFile().read("manifest-old-0", fileIO.size(path));
        DataFileMeta expected = new DataFileMeta(file.fileName(), file.fileSize(), file.rowCount(), file.minKey(),
                file.maxKey(), file.keyStats(), file.valueStats(), file.minSequenceNumber(), file.maxSequenceNumber(),
                file.schemaId(), file.level(), file.extraFiles(), file.creationTimeMillis(), file.deleteRowCount(),
                file.embeddedIndex(), file.fileSource(), null, null, null, null);
        assertThat(read).containsExactly(new ManifestEntry(FileKind.ADD, entry.partition(), 2, 4, expected));
    }

    @Test
    void refusesManifestsOfNewerLayoutsNamingTheUnknownField() throws Exception {
        String newer = ManifestSchemasTest.MANIFEST_ENTRY.replace(
                "{\"name\":\"_FILE\",",
                "{\"name\":\"_SOMETHING_NEW\",\"type\":[\"null\",\"string\"],\"default\":null},{\"name\":\"_FILE\",");
        Schema schema = new Schema.Parser().parse(newer);
        ManifestEntry entry = delete(partition("d", 1), 2, fullFile("n.parquet", 1, 0));
        GenericRecord record = AvroTestFiles.entryRecord(schema, entry);
        record.put("_SOMETHING_NEW", "hello");
        Path path = new Path(manifestDir, "manifest-new-0");
        AvroTestFiles.write(fileIO, path, schema, List.of(record));
        assertThatThrownBy(() -> manifestFile().read("manifest-new-0", null))
                .isInstanceOf(dev.streamhouse.storage.UnsupportedTableFeatureException.class)
                .hasMessageContaining("manifest-new-0").hasMessageContaining("[_SOMETHING_NEW]")
                .hasMessageContaining("newer version of Paimon");
    }

    @Test
    void rejectsVersionOneWithRecreateMessageAndOtherVersions() throws Exception {
        Schema schema = ManifestSchemas.MANIFEST_ENTRY;
        for (int version : new int[] {1, 3}) {
            GenericRecord record = AvroTestFiles.entryRecord(schema, add(partition("d", 1), 0, minimalFile("v", 0, 0)));
            record.put("_VERSION", version);
            Path path = new Path(manifestDir, "manifest-v" + version);
            AvroTestFiles.write(fileIO, path, schema, List.of(record));
            assertThatThrownBy(() -> manifestFile().read("manifest-v" + version, null))
                    .isInstanceOf(CorruptManifestException.class)
                    .hasMessageContaining(path.toString())
                    .hasMessageContaining("of table " + tableRoot)
                    .hasMessageContaining(version == 1 ? "please recreate the table" : "unsupported _VERSION 3");
        }
    }

    @Test
    void missingRequiredFieldIsCorrupt() throws Exception {
        Schema schema = new Schema.Parser().parse(ManifestSchemasTest.MANIFEST_ENTRY
                .replace("{\"name\":\"_TOTAL_BUCKETS\",\"type\":\"int\"},", ""));
        GenericRecord record = AvroTestFiles.entryRecord(schema, add(partition("d", 1), 0, minimalFile("v", 0, 0)));
        AvroTestFiles.write(fileIO, new Path(manifestDir, "manifest-x"), schema, List.of(record));
        assertThatThrownBy(() -> manifestFile().read("manifest-x", null))
                .isInstanceOf(CorruptManifestException.class).hasMessageContaining("_TOTAL_BUCKETS");
    }

    @Test
    void truncatedOrGarbageOrWronglySizedFilesAreCorruptAndKept() throws Exception {
        List<ManifestEntry> entries = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            entries.add(add(partition("p", i), 0, fullFile("f" + i, 0, 0)));
        }
        ManifestFile mf = manifestFile();
        ManifestFileMeta meta = mf.write(entries).get(0);
        Path path = mf.path(meta.fileName());
        byte[] full = fileIO.readAllBytes(path);

        assertThatThrownBy(() -> mf.read(meta.fileName(), meta.fileSize() + 1))
                .isInstanceOf(CorruptManifestException.class).hasMessageContaining("recorded size");

        byte[] truncated = Arrays.copyOf(full, full.length - 40);
        fileIO.overwrite(path, truncated);
        for (Long size : new Long[] {null, meta.fileSize()}) {
            assertThatThrownBy(() -> mf.read(meta.fileName(), size))
                    .isInstanceOf(CorruptManifestException.class)
                    .hasMessageContaining("manifest file " + path + " of table " + tableRoot)
                    .satisfies(e -> assertThat(((CorruptManifestException) e).file()).isEqualTo(path));
        }
        assertThat(fileIO.readAllBytes(path)).isEqualTo(truncated);

        fileIO.overwrite(path, "definitely not avro".getBytes());
        assertThatThrownBy(() -> mf.read(meta.fileName(), null)).isInstanceOf(CorruptManifestException.class);
        fileIO.overwrite(path, new byte[0]);
        assertThatThrownBy(() -> mf.read(meta.fileName(), null)).isInstanceOf(CorruptManifestException.class);
        assertThat(fileIO.exists(path)).isTrue();
    }

    @Test
    void missingFileIsFileNotFoundNamingFileAndTable() {
        assertThatThrownBy(() -> manifestFile().read("manifest-nope-0", null))
                .isInstanceOf(FileNotFoundException.class)
                .hasMessageContaining("manifest-nope-0").hasMessageContaining("of table " + tableRoot);
    }

    @Test
    void storageFailuresAreIoExceptionsNotCorruption() throws Exception {
        ManifestFile mf = manifestFile();
        ManifestFileMeta meta = mf.write(List.of(add(partition("p", 1), 0, fullFile("f", 0, 0)))).get(0);
        fileIO.failInputAfterBytes = 100;
        // the whole file is read up front, so a store failure surfaces before any decoding
        assertThatThrownBy(() -> mf.read(meta.fileName(), meta.fileSize()))
                .isInstanceOf(IOException.class)
                .isNotInstanceOf(CorruptManifestException.class)
                .hasMessageContaining("injected read failure")
                .hasMessageContaining("of table " + tableRoot);
    }

    @Test
    void failedWriteDeletesTheFilesItCreated() throws Exception {
        List<ManifestEntry> entries = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            entries.add(add(partition("p", i), 0, fullFile("f" + i, 0, 0)));
        }
        fileIO.failOutputStreamNumber = 3;
        assertThatThrownBy(() -> manifestFile("zstd", 2048).write(entries)).isInstanceOf(IOException.class)
                .hasMessageContaining("injected failure");
        assertThat(fileIO.outputStreamsOpened.get()).isEqualTo(3);
        assertThat(fileIO.list(manifestDir)).isEmpty();
    }

    @Test
    void rejectsEntriesWhosePartitionDoesNotMatchThePartitionType() throws Exception {
        ManifestEntry bad = add(BinaryRow.EMPTY_ROW, 0, minimalFile("f", 0, 0));
        assertThatThrownBy(() -> manifestFile().write(List.of(bad))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("partition row has 0 fields");
        assertThat(fileIO.list(manifestDir)).isEmpty();
    }

    @Test
    void deleteRemovesTheFile() throws Exception {
        ManifestFile mf = manifestFile();
        ManifestFileMeta meta = mf.write(List.of(add(partition("p", 1), 0, minimalFile("f", 0, 0)))).get(0);
        mf.delete(meta.fileName());
        assertThat(LocalFileIO.INSTANCE.exists(mf.path(meta.fileName()))).isFalse();
        mf.delete(meta.fileName());
    }
}
