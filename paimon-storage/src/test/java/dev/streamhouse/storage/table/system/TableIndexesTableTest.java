package dev.streamhouse.storage.table.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.streamhouse.storage.commit.CommitMessage;
import dev.streamhouse.storage.commit.CompactIncrement;
import dev.streamhouse.storage.commit.DataIncrement;
import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalArray;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.deletionvectors.BitmapDeletionVector;
import dev.streamhouse.storage.deletionvectors.DeletionVectorIndexFile;
import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.index.DeletionVectorMeta;
import dev.streamhouse.storage.index.IndexFileMeta;
import dev.streamhouse.storage.index.IndexManifestEntry;
import dev.streamhouse.storage.manifest.ManifestEntry;
import dev.streamhouse.storage.predicate.PredicateBuilder;
import dev.streamhouse.storage.schema.Schema;
import dev.streamhouse.storage.schema.SchemaManager;
import dev.streamhouse.storage.schema.TableSchema;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.table.sink.BatchTableCommit;
import dev.streamhouse.storage.table.sink.TableWrite;
import dev.streamhouse.storage.testutils.TestTables;
import dev.streamhouse.storage.types.DataTypes;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code t$table_indexes} lists the index files of the selected snapshot's index manifest, in its
 * order: the hash indexes of a dynamic-bucket table this store writes, and deletion-vector index
 * files with their ranges; with projection, filter and time travel. {@code t$files} shows a data
 * file's own delete count, not the rows its deletion vector removes (as Paimon 1.3.1's does).
 */
class TableIndexesTableTest {
    private static final List<String> COLUMNS =
            List.of("partition", "bucket", "index_type", "file_name", "file_size", "row_count", "dv_ranges");

    @TempDir
    java.nio.file.Path dir;

    private Path root;

    private FileStoreTable create(String... options) throws Exception {
        root = new Path(dir.toString() + "/db.db/t");
        Schema.Builder b = Schema.newBuilder().column("dt", DataTypes.STRING()).column("id", DataTypes.INT())
                .column("v", DataTypes.STRING()).partitionKeys("dt").primaryKey("dt", "id");
        for (int i = 0; i < options.length; i += 2) {
            b.option(options[i], options[i + 1]);
        }
        return TestTables.create(LocalFileIO.INSTANCE, root, b.build());
    }

    private static InternalRow row(RowKind kind, String dt, int id, String v) {
        return GenericRow.ofKind(kind, BinaryString.fromString(dt), id, BinaryString.fromString(v));
    }

    private static void write(FileStoreTable table, InternalRow... rows) throws Exception {
        try (TableWrite w = table.newWrite(); BatchTableCommit c = table.newBatchCommit()) {
            for (InternalRow r : rows) {
                w.write(r);
            }
            c.commit(w.prepareCommit());
        }
    }

    private static List<InternalRow> rows(SystemTableRead read) throws Exception {
        List<InternalRow> out = new ArrayList<>();
        read.createReader().forEachRemaining(out::add);
        return out;
    }

    private List<IndexManifestEntry> indexManifest(FileStoreTable table, long snapshotId) throws Exception {
        return table.indexManifestFile().read(table.snapshotManager().snapshot(snapshotId).indexManifest());
    }

    private long sizeOnDisk(String indexFile) throws Exception {
        return Files.size(java.nio.file.Path.of(root.toString(), "index", indexFile));
    }

    /** Checks every column of each row against the index manifest entry at the same position. */
    private void assertRowsAre(List<InternalRow> rows, List<IndexManifestEntry> entries) throws Exception {
        assertThat(rows).hasSameSizeAs(entries);
        for (int i = 0; i < rows.size(); i++) {
            InternalRow r = rows.get(i);
            IndexManifestEntry e = entries.get(i);
            IndexFileMeta f = e.indexFile();
            assertThat(r.stringAt(0).toString()).isEqualTo("{" + e.partition().stringAt(0) + "}");
            assertThat(r.intAt(1)).isEqualTo(e.bucket());
            assertThat(r.stringAt(2).toString()).isEqualTo(f.indexType());
            assertThat(r.stringAt(3).toString()).isEqualTo(f.fileName());
            assertThat(r.longAt(4)).isEqualTo(f.fileSize()).isEqualTo(sizeOnDisk(f.fileName()));
            assertThat(r.longAt(5)).isEqualTo(f.rowCount());
            if (f.deletionVectorRanges() == null) {
                assertThat(r.isNullAt(6)).isTrue();
            } else {
                assertThat(ranges(r.arrayAt(6))).isEqualTo(f.deletionVectorRanges());
            }
        }
    }

    private static List<DeletionVectorMeta> ranges(InternalArray array) {
        List<DeletionVectorMeta> out = new ArrayList<>();
        for (int i = 0; i < array.size(); i++) {
            InternalRow dv = array.rowAt(i, 4);
            out.add(new DeletionVectorMeta(dv.stringAt(0).toString(), dv.intAt(1), dv.intAt(2),
                    dv.isNullAt(3) ? null : dv.longAt(3)));
        }
        return out;
    }

    @Test
    void columnsAreThoseOfPaimon() throws Exception {
        SystemTable indexes = SystemTables.of(create("bucket", "1"), "TABLE_INDEXES").orElseThrow();
        assertThat(indexes.fullName()).isEqualTo("default.test$table_indexes");
        assertThat(indexes.rowType().fieldNames()).isEqualTo(COLUMNS);
        assertThat(indexes.rowType().fieldTypes().stream().map(Object::toString).toList()).containsExactly(
                "STRING", "INT NOT NULL", "STRING NOT NULL", "STRING NOT NULL", "BIGINT NOT NULL", "BIGINT NOT NULL",
                "ARRAY<ROW<`f0` STRING NOT NULL, `f1` INT NOT NULL, `f2` INT NOT NULL, `_CARDINALITY` BIGINT>>");
        assertThat(SystemTables.names()).contains("table_indexes");
    }

    @Test
    void hashIndexesOfADynamicBucketTableAtTheLatestAndAnEarlierSnapshot() throws Exception {
        FileStoreTable table = create("dynamic-bucket.target-row-num", "10");
        List<InternalRow> first = new ArrayList<>();
        for (int id = 0; id < 25; id++) {
            first.add(row(RowKind.INSERT, "a", id, "v" + id));
        }
        for (int id = 0; id < 5; id++) {
            first.add(row(RowKind.INSERT, "b", id, "v" + id));
        }
        write(table, first.toArray(new InternalRow[0]));
        write(table, row(RowKind.INSERT, "a", 3, "x"), row(RowKind.INSERT, "a", 40, "new"),
                row(RowKind.INSERT, "b", 41, "new"));

        List<InternalRow> latest = rows(SystemTables.of(table, "table_indexes").orElseThrow().newRead());
        assertRowsAre(latest, indexManifest(table, 2));
        assertThat(latest).allSatisfy(r -> assertThat(r.stringAt(2).toString()).isEqualTo("HASH"));
        assertThat(latest.stream().map(r -> r.intAt(1)).distinct().count()).as("buckets").isGreaterThan(1);
        Map<String, Long> hashes = new HashMap<>();
        latest.forEach(r -> hashes.merge(r.stringAt(0).toString(), r.longAt(5), Long::sum));
        assertThat(hashes).as("one hash per key").containsExactlyInAnyOrderEntriesOf(Map.of("{a}", 26L, "{b}", 6L));

        List<InternalRow> atFirst = rows(SystemTables.of(table.copy(Map.of("scan.snapshot-id", "1")),
                "table_indexes").orElseThrow().newRead());
        assertRowsAre(atFirst, indexManifest(table, 1));
        assertThat(atFirst.stream().mapToLong(r -> r.longAt(5)).sum()).isEqualTo(30);

        SystemTable indexes = SystemTables.of(table, "table_indexes").orElseThrow();
        SystemTableRead read = indexes.newRead()
                .withFilter(new PredicateBuilder(indexes.rowType()).equal(0, BinaryString.fromString("{b}")))
                .withProjection(new int[] {5, 3});
        assertThat(read.readType().fieldNames()).containsExactly("row_count", "file_name");
        List<String> projected = new ArrayList<>();
        rows(read).forEach(r -> projected.add(r.longAt(0) + " " + r.stringAt(1)));
        List<String> expected = new ArrayList<>();
        latest.stream().filter(r -> r.stringAt(0).toString().equals("{b}"))
                .forEach(r -> expected.add(r.longAt(5) + " " + r.stringAt(3)));
        assertThat(projected).isNotEmpty().isEqualTo(expected);
    }

    @Test
    void deletionVectorIndexFilesWithTheirRangesAndFilesShowsTheFilesOwnDeleteCount() throws Exception {
        FileStoreTable table = create("bucket", "2");
        List<InternalRow> rows = new ArrayList<>();
        for (int id = 0; id < 20; id++) {
            rows.add(row(RowKind.INSERT, id % 2 == 0 ? "a" : "b", id, "v" + id));
        }
        write(table, rows.toArray(new InternalRow[0]));
        write(table, row(RowKind.DELETE, "a", 0, "v0"), row(RowKind.INSERT, "a", 2, "x"));

        // Turn deletion vectors on, as Paimon would have created the table, and store a vector for the
        // first file of every bucket (deleting rows 0 and 1) and for the later ones (row 0).
        TableSchema plain = table.schema();
        Map<String, String> options = new HashMap<>(plain.options());
        options.put("deletion-vectors.enabled", "true");
        assertThat(new SchemaManager(LocalFileIO.INSTANCE, root, "default.test").commitNewVersion(new TableSchema(
                plain.version(), plain.id() + 1, plain.fields(), plain.highestFieldId(), plain.partitionKeys(),
                plain.primaryKeys(), options, null, 0L))).isTrue();
        FileStoreTable dv = FileStoreTable.load(LocalFileIO.INSTANCE, root, "default.test");
        DeletionVectorIndexFile indexFiles = DeletionVectorIndexFile.of(LocalFileIO.INSTANCE, root, "default.test",
                dv.schema().tableOptions());
        Map<List<Object>, Map<String, BitmapDeletionVector>> vectors = new LinkedHashMap<>();
        Map<List<Object>, ManifestEntry> buckets = new LinkedHashMap<>();
        List<ManifestEntry> files = dv.newFileStoreScan().plan().files();
        for (ManifestEntry e : files) {
            List<Object> key = List.of(e.partition().stringAt(0).toString(), e.bucket());
            Map<String, BitmapDeletionVector> bucket = vectors.computeIfAbsent(key, k -> new LinkedHashMap<>());
            buckets.putIfAbsent(key, e);
            bucket.put(e.file().fileName(), bucket.isEmpty() ? BitmapDeletionVector.of(0, 1) : BitmapDeletionVector.of(0));
        }
        assertThat(vectors.values().stream().mapToInt(Map::size).sum()).isGreaterThan(vectors.size());
        List<CommitMessage> messages = new ArrayList<>();
        for (Map.Entry<List<Object>, Map<String, BitmapDeletionVector>> e : vectors.entrySet()) {
            ManifestEntry any = buckets.get(e.getKey());
            messages.add(new CommitMessage(any.partition(), any.bucket(), any.totalBuckets(),
                    new DataIncrement(List.of(), List.of(), List.of(), List.of(indexFiles.write(e.getValue())),
                            List.of()), CompactIncrement.EMPTY));
        }
        try (BatchTableCommit commit = dv.newBatchCommit()) {
            commit.commit(messages);
        }
        long snapshot = dv.latestSnapshot().orElseThrow().id();

        List<InternalRow> indexes = rows(SystemTables.of(dv, "table_indexes").orElseThrow().newRead());
        List<IndexManifestEntry> entries = indexManifest(dv, snapshot);
        assertRowsAre(indexes, entries);
        assertThat(indexes).hasSize(vectors.size()).allSatisfy(r -> {
            assertThat(r.stringAt(2).toString()).isEqualTo("DELETION_VECTORS");
            assertThat(r.longAt(5)).as("one vector per data file").isEqualTo(r.arrayAt(6).size());
        });
        List<String> deleted = new ArrayList<>();
        for (InternalRow r : indexes) {
            for (DeletionVectorMeta m : ranges(r.arrayAt(6))) {
                deleted.add(m.dataFileName() + "=" + m.cardinality());
            }
        }
        List<String> expected = new ArrayList<>();
        vectors.values().forEach(v -> v.forEach((file, vector) -> expected.add(file + "=" + vector.cardinality())));
        assertThat(deleted).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(rows(SystemTables.of(dv.copy(Map.of("scan.snapshot-id", "1")), "table_indexes").orElseThrow()
                .newRead())).as("a fixed-bucket table has no index before the vectors").isEmpty();

        // $files shows each data file's own count of retractions, whatever its vector deletes.
        SystemTable filesTable = SystemTables.of(dv, "files").orElseThrow();
        int path = filesTable.rowType().fieldNames().indexOf("file_path");
        int deleteRowCount = filesTable.rowType().fieldNames().indexOf("deleteRowCount");
        Map<String, Long> shown = new HashMap<>();
        for (InternalRow r : rows(filesTable.newRead())) {
            String p = r.stringAt(path).toString();
            shown.put(p.substring(p.lastIndexOf('/') + 1), r.isNullAt(deleteRowCount) ? null : r.longAt(deleteRowCount));
        }
        Map<String, Long> own = new HashMap<>();
        files.forEach(e -> own.put(e.file().fileName(), e.file().deleteRowCount()));
        assertThat(shown).isEqualTo(own);
        assertThat(own.values()).as("one file holds the -D").contains(1L);
    }

    @Test
    void tablesWithoutIndexFilesOrSnapshotsHaveNoRows() throws Exception {
        FileStoreTable table = create("bucket", "1");
        assertThat(rows(SystemTables.of(table, "table_indexes").orElseThrow().newRead())).isEmpty();
        write(table, row(RowKind.INSERT, "a", 1, "v"));
        assertThat(table.latestSnapshot().orElseThrow().indexManifest()).isNull();
        assertThat(rows(SystemTables.of(table, "table_indexes").orElseThrow().newRead())).isEmpty();
        SystemTable missing = SystemTables.of(table.copy(Map.of("scan.snapshot-id", "5")), "table_indexes")
                .orElseThrow();
        assertThatThrownBy(() -> rows(missing.newRead())).hasMessageContaining(
                "Cannot read the metadata of table default.test at snapshot 5 (option 'scan.snapshot-id')");
    }

    @Test
    void aMissingIndexManifestIsAnErrorNamingIt() throws Exception {
        FileStoreTable table = create("dynamic-bucket.target-row-num", "10");
        write(table, row(RowKind.INSERT, "a", 1, "v"));
        String manifest = table.latestSnapshot().orElseThrow().indexManifest();
        Files.delete(java.nio.file.Path.of(root.toString(), "manifest", manifest));
        assertThatThrownBy(() -> rows(SystemTables.of(table, "table_indexes").orElseThrow().newRead()))
                .hasMessageContaining("Cannot read index manifest").hasMessageContaining(manifest)
                .hasMessageContaining("it does not exist");
    }
}
