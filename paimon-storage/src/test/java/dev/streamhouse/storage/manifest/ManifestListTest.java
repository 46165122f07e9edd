package dev.streamhouse.storage.manifest;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.stats.SimpleStats;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.Arrays;
import java.util.List;

import static dev.streamhouse.storage.manifest.ManifestTestData.partition;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ManifestListTest {
    @TempDir
    java.nio.file.Path tmp;

    private final TestFileIO fileIO = new TestFileIO();
    private Path tableRoot;
    private Path manifestDir;
    private ManifestList list;

    @BeforeEach
    void setUp() {
        tableRoot = new Path(tmp.toString() + "/db.db/t");
        manifestDir = new Path(tableRoot, "manifest");
        list = new ManifestList(fileIO, manifestDir, "zstd", 1);
    }

    static ManifestFileMeta meta(String name, boolean withRanges) {
        SimpleStats stats = new SimpleStats(partition("2024-01-01", 1), partition("2024-01-02", 7), new Long[] {0L, 2L});
        return withRanges
                ? new ManifestFileMeta(name, 2325, 3, 1, stats, 4, 0, 1, 0, 5)
                : new ManifestFileMeta(name, 10, 0, 0, new SimpleStats(BinaryRow.EMPTY_ROW, BinaryRow.EMPTY_ROW, null),
                        0, null, null, null, null);
    }

    @Test
    void emptyListIsWritableReadableAndAsLargeAsPaimons() throws Exception {
        WrittenManifestList written = list.write(List.of());
        assertThat(written.fileName()).matches("manifest-list-[0-9a-f-]{36}-0");
        assertThat(written.fileSize()).isEqualTo(fileIO.size(list.path(written.fileName())));
        // docs/format.md §5.3: Paimon's empty zstandard manifest list is 884 bytes; same header, same size
        assertThat(written.fileSize()).isEqualTo(884);
        assertThat(list.read(written.fileName(), written.fileSize())).isEmpty();
        assertThat(list.read(written.fileName(), null)).isEmpty();
    }

    @Test
    void roundTripsRecordsWithAndWithoutNullables() throws Exception {
        List<ManifestFileMeta> metas = List.of(meta("manifest-a-0", true), meta("manifest-a-1", false));
        WrittenManifestList first = list.write(metas);
        WrittenManifestList second = list.write(metas.subList(0, 1));
        assertThat(second.fileName()).endsWith("-1");
        assertThat(list.read(first.fileName(), first.fileSize())).isEqualTo(metas);
        assertThat(list.read(second.fileName(), second.fileSize())).containsExactly(metas.get(0));
    }

    @Test
    void readsListsWithoutTheBucketAndLevelFields() throws Exception {
        String old = ManifestSchemasTest.MANIFEST_LIST
                .replace(",{\"name\":\"_MIN_BUCKET\",\"type\":[\"null\",\"int\"],\"default\":null}", "")
                .replace(",{\"name\":\"_MAX_BUCKET\",\"type\":[\"null\",\"int\"],\"default\":null}", "")
                .replace(",{\"name\":\"_MIN_LEVEL\",\"type\":[\"null\",\"int\"],\"default\":null}", "")
                .replace(",{\"name\":\"_MAX_LEVEL\",\"type\":[\"null\",\"int\"],\"default\":null}", "");
        Schema schema = new Schema.Parser().parse(old);
        assertThat(schema.getFields()).hasSize(7);
        ManifestFileMeta m = meta("manifest-old-0", true);
        Path path = new Path(manifestDir, "manifest-list-old-0");
        AvroTestFiles.write(fileIO, path, schema, List.of(record(schema, m, 2)));
        assertThat(list.read("manifest-list-old-0", fileIO.size(path))).containsExactly(
                new ManifestFileMeta(m.fileName(), m.fileSize(), m.numAddedFiles(), m.numDeletedFiles(),
                        m.partitionStats(), m.schemaId(), null, null, null, null));
    }

    @Test
    void rejectsVersionOne() throws Exception {
        Schema schema = ManifestSchemas.MANIFEST_LIST;
        Path path = new Path(manifestDir, "manifest-list-v1");
        AvroTestFiles.write(fileIO, path, schema, List.of(record(schema, meta("m", true), 1)));
        assertThatThrownBy(() -> list.read("manifest-list-v1", null))
                .isInstanceOf(CorruptManifestException.class)
                .hasMessageContaining("manifest list " + path + " of table " + tableRoot)
                .hasMessageContaining("please recreate the table");
    }

    @Test
    void truncatedListIsCorruptAndKept() throws Exception {
        WrittenManifestList written = list.write(List.of(meta("manifest-a-0", true), meta("manifest-a-1", true)));
        Path path = list.path(written.fileName());
        byte[] truncated = Arrays.copyOf(fileIO.readAllBytes(path), (int) written.fileSize() - 5);
        fileIO.overwrite(path, truncated);
        assertThatThrownBy(() -> list.read(written.fileName(), null))
                .isInstanceOf(CorruptManifestException.class)
                .hasMessageContaining(path.toString()).hasMessageContaining("of table " + tableRoot);
        assertThatThrownBy(() -> list.read(written.fileName(), written.fileSize()))
                .isInstanceOf(CorruptManifestException.class).hasMessageContaining("recorded size");
        assertThat(fileIO.readAllBytes(path)).isEqualTo(truncated);
    }

    @Test
    void failedWriteLeavesNoFile() throws Exception {
        fileIO.failOutputStreamNumber = 1;
        assertThatThrownBy(() -> list.write(List.of(meta("m", true)))).hasMessageContaining("injected");
        assertThat(fileIO.list(manifestDir)).isEmpty();
    }

    private static GenericRecord record(Schema schema, ManifestFileMeta m, int version) {
        GenericRecord r = new GenericData.Record(schema);
        r.put("_VERSION", version);
        r.put("_FILE_NAME", m.fileName());
        r.put("_FILE_SIZE", m.fileSize());
        r.put("_NUM_ADDED_FILES", m.numAddedFiles());
        r.put("_NUM_DELETED_FILES", m.numDeletedFiles());
        r.put("_PARTITION_STATS", AvroTestFiles.stats(schema.getField("_PARTITION_STATS").schema(), m.partitionStats()));
        r.put("_SCHEMA_ID", m.schemaId());
        AvroTestFiles.putIfPresent(r, "_MIN_BUCKET", m.minBucket());
        AvroTestFiles.putIfPresent(r, "_MAX_BUCKET", m.maxBucket());
        AvroTestFiles.putIfPresent(r, "_MIN_LEVEL", m.minLevel());
        AvroTestFiles.putIfPresent(r, "_MAX_LEVEL", m.maxLevel());
        return r;
    }
}
