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

    /** The manifest list layout with {@code extra} fields added after {@code afterField} (null: at the end). */
    private static Schema withFields(String afterField, List<Schema.Field> extra) {
        List<Schema.Field> fields = new java.util.ArrayList<>();
        for (Schema.Field f : ManifestSchemas.MANIFEST_LIST.getFields()) {
            fields.add(new Schema.Field(f, f.schema()));
            if (f.name().equals(afterField)) {
                extra.forEach(e -> fields.add(new Schema.Field(e, e.schema())));
            }
        }
        if (afterField == null) {
            extra.forEach(e -> fields.add(new Schema.Field(e, e.schema())));
        }
        Schema old = ManifestSchemas.MANIFEST_LIST;
        return Schema.createRecord(old.getName(), null, old.getNamespace(), false, fields);
    }

    private static Schema.Field nullableLong(String name) {
        return new Schema.Field(name, AvroSupport.nullable(Schema.create(Schema.Type.LONG)), null,
                Schema.Field.NULL_DEFAULT_VALUE);
    }

    @Test
    void readsPast14RowIdRangesAndNotesThemSoTheRecordIsNeverWrittenAgain() throws Exception {
        Schema schema = withFields(null, List.of(nullableLong("_MIN_ROW_ID"), nullableLong("_MAX_ROW_ID")));
        ManifestFileMeta m = meta("manifest-14-0", true);
        GenericRecord r = record(schema, m, 2);
        r.put("_MIN_ROW_ID", 0L);
        r.put("_MAX_ROW_ID", 99L);
        Path path = new Path(manifestDir, "manifest-list-14");
        AvroTestFiles.write(fileIO, path, schema, List.of(r));
        List<ManifestFileMeta> read = list.read("manifest-list-14", fileIO.size(path));
        assertThat(read).hasSize(1);
        assertThat(read.get(0).newerFields()).containsExactly("_MAX_ROW_ID", "_MIN_ROW_ID");
        assertThat(new ManifestFileMeta(m.fileName(), m.fileSize(), m.numAddedFiles(), m.numDeletedFiles(),
                m.partitionStats(), m.schemaId(), m.minBucket(), m.maxBucket(), m.minLevel(), m.maxLevel(),
                read.get(0).newerFields())).isEqualTo(read.get(0));
        assertThatThrownBy(() -> list.write(read))
                .isInstanceOf(dev.streamhouse.storage.UnsupportedTableFeatureException.class)
                .hasMessageContaining("Cannot write manifest manifest-14-0 into a manifest list")
                .hasMessageContaining("[_MAX_ROW_ID (added in Apache Paimon 1.4), _MIN_ROW_ID (added in Apache "
                        + "Paimon 1.4)]");
    }

    @Test
    void refusesSkippableNamesThatAreNotTrailingOrNotNullable() throws Exception {
        Schema inMiddle = withFields("_SCHEMA_ID", List.of(nullableLong("_MIN_ROW_ID")));
        Path middle = new Path(manifestDir, "manifest-list-middle");
        AvroTestFiles.write(fileIO, middle, inMiddle, List.of(record(inMiddle, meta("m", true), 2)));
        assertThatThrownBy(() -> list.read("manifest-list-middle", null))
                .isInstanceOf(dev.streamhouse.storage.UnsupportedTableFeatureException.class)
                .hasMessageContaining("[_MIN_ROW_ID]");

        Schema required = withFields(null, List.of(new Schema.Field("_MIN_ROW_ID", Schema.create(Schema.Type.LONG))));
        Path path = new Path(manifestDir, "manifest-list-required");
        GenericRecord r = record(required, meta("m", true), 2);
        r.put("_MIN_ROW_ID", 1L);
        AvroTestFiles.write(fileIO, path, required, List.of(r));
        assertThatThrownBy(() -> list.read("manifest-list-required", null))
                .isInstanceOf(dev.streamhouse.storage.UnsupportedTableFeatureException.class)
                .hasMessageContaining("[_MIN_ROW_ID]");
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
