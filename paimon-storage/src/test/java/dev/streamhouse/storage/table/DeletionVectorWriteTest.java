package dev.streamhouse.storage.table;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.deletionvectors.BitmapDeletionVector;
import dev.streamhouse.storage.deletionvectors.DeletionVectorIndexFile;
import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.index.DeletionVectorMeta;
import dev.streamhouse.storage.index.IndexFileMeta;
import dev.streamhouse.storage.index.IndexManifestEntry;
import dev.streamhouse.storage.manifest.ManifestEntry;
import dev.streamhouse.storage.operation.CommitConflictException;
import dev.streamhouse.storage.schema.Schema;
import dev.streamhouse.storage.snapshot.CommitKind;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.table.sink.TableCommit;
import dev.streamhouse.storage.table.sink.TableWrite;
import dev.streamhouse.storage.testutils.TestTables;
import dev.streamhouse.storage.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Writing a primary-key table with {@code deletion-vectors.enabled}: the older versions of the keys a
 * level-0 compaction moves up are marked deleted in the bucket's one DV index file (committed with the
 * COMPACT snapshot), retractions never stay above level 0, a writer started later continues from the
 * committed vectors, full compactions drop them, and batch reads (which read raw) see exactly the
 * table's rows.
 */
class DeletionVectorWriteTest {
    @TempDir
    java.nio.file.Path tmp;

    private FileStoreTable table;

    private FileStoreTable create(String... options) throws Exception {
        Schema.Builder b = Schema.newBuilder()
                .column("id", DataTypes.INT().notNull())
                .column("v", DataTypes.STRING())
                .primaryKey("id")
                .option("bucket", "1")
                .option("deletion-vectors.enabled", "true")
                .option("num-levels", "5");
        for (int i = 0; i < options.length; i += 2) {
            b.option(options[i], options[i + 1]);
        }
        table = TestTables.create(LocalFileIO.INSTANCE, new Path(tmp.resolve("t").toString()), b.build());
        return table;
    }

    private static GenericRow row(RowKind kind, int id, String v) {
        return GenericRow.ofKind(kind, id, BinaryString.fromString(v));
    }

    private static void upsert(TableWrite write, int from, int to, String v) throws Exception {
        for (int id = from; id < to; id++) {
            write.write(row(RowKind.INSERT, id, v + id));
        }
    }

    private List<String> expected(Map<Integer, String> model) {
        List<String> out = new ArrayList<>();
        model.forEach((id, v) -> out.add("+I(" + id + ", " + v + ")"));
        out.sort(null);
        return out;
    }

    private List<IndexManifestEntry> dvEntries() throws Exception {
        Snapshot s = table.latestSnapshot().orElseThrow();
        if (s.indexManifest() == null) {
            return List.of();
        }
        List<IndexManifestEntry> out = new ArrayList<>();
        for (IndexManifestEntry e : table.indexManifestFile().read(s.indexManifest())) {
            if (IndexFileMeta.DELETION_VECTORS_INDEX.equals(e.indexFile().indexType())) {
                out.add(e);
            }
        }
        return out;
    }

    private Map<String, BitmapDeletionVector> vectors() throws Exception {
        List<IndexManifestEntry> entries = dvEntries();
        assertThat(entries).as("one DV index file per bucket").hasSizeLessThanOrEqualTo(1);
        if (entries.isEmpty()) {
            return Map.of();
        }
        return DeletionVectorIndexFile.of(LocalFileIO.INSTANCE, new Path(tmp.resolve("t").toString()), "t",
                table.schema().tableOptions()).read(entries.get(0).indexFile());
    }

    private List<ManifestEntry> liveFiles() throws Exception {
        return table.newFileStoreScan().plan().files();
    }

    @Test
    void levelZeroCompactionsMarkOlderVersionsDeletedInsteadOfRewritingThem() throws Exception {
        create();
        Map<Integer, String> model = new java.util.TreeMap<>();
        TableCommit commit = table.newStreamCommit("u");
        try (TableWrite write = table.newWrite()) {
            upsert(write, 0, 100, "a");
            write.compact(BinaryRow.EMPTY_ROW, 0, true);
            commit.commit(1, write.prepareCommit());
            for (int id = 0; id < 100; id++) {
                model.put(id, "a" + id);
            }
            List<ManifestEntry> first = liveFiles();
            assertThat(first).singleElement().satisfies(e -> assertThat(e.file().level()).isEqualTo(4));
            String bottom = first.get(0).file().fileName();
            assertThat(dvEntries()).isEmpty();

            upsert(write, 10, 20, "b");
            for (int id = 10; id < 20; id++) {
                model.put(id, "b" + id);
            }
            commit.commit(2, write.prepareCommit());

            Snapshot compact = table.latestSnapshot().orElseThrow();
            assertThat(compact.commitKind()).isEqualTo(CommitKind.COMPACT);
            assertThat(liveFiles()).extracting(e -> e.file().fileName()).contains(bottom);
            assertThat(liveFiles()).allSatisfy(e -> assertThat(e.file().level()).isPositive());
            BitmapDeletionVector vector = vectors().get(bottom);
            assertThat(vector).isNotNull();
            assertThat(vector.cardinality()).isEqualTo(10);
            for (long p = 10; p < 20; p++) {
                assertThat(vector.isDeleted(p)).isTrue();
            }
            IndexManifestEntry entry = dvEntries().get(0);
            assertThat(entry.indexFile().rowCount()).isEqualTo(1);
            assertThat(entry.indexFile().deletionVectorRanges()).extracting(DeletionVectorMeta::dataFileName)
                    .containsExactly(bottom);
            assertThat(TestTables.readAll(table)).isEqualTo(expected(model));

            // Deletes: retracted keys vanish from batch reads; no retraction is kept above level 0.
            for (int id = 0; id < 5; id++) {
                write.write(row(RowKind.DELETE, id, "a" + id));
                model.remove(id);
            }
            write.write(row(RowKind.DELETE, 15, "b15"));
            model.remove(15);
            commit.commit(3, write.prepareCommit());
            assertThat(TestTables.readAll(table)).isEqualTo(expected(model));
            assertThat(liveFiles()).allSatisfy(e -> {
                assertThat(e.file().level()).isPositive();
                assertThat(e.file().deleteRowCount()).isEqualTo(0L);
            });
            assertThat(vectors().get(bottom).cardinality()).isEqualTo(15);

            // A key deleted earlier and inserted again is new: nothing live is found for it.
            write.write(row(RowKind.INSERT, 2, "c2"));
            model.put(2, "c2");
            commit.commit(4, write.prepareCommit());
            assertThat(TestTables.readAll(table)).isEqualTo(expected(model));
        }

        // A new writer continues from the committed vectors; its commit replaces the bucket's index file.
        String indexBefore = dvEntries().get(0).indexFile().fileName();
        TableCommit second = table.newStreamCommit("u2");
        try (TableWrite write = table.newWrite()) {
            upsert(write, 50, 60, "d");
            for (int id = 50; id < 60; id++) {
                model.put(id, "d" + id);
            }
            second.commit(1, write.prepareCommit());
        }
        assertThat(TestTables.readAll(table)).isEqualTo(expected(model));
        assertThat(dvEntries()).singleElement().satisfies(e ->
                assertThat(e.indexFile().fileName()).isNotEqualTo(indexBefore));
        assertThat(vectors().values().stream().mapToLong(BitmapDeletionVector::cardinality).sum())
                .as("15 rows of the first file and the versions of 2, 10..19 and 50..59 replaced since")
                .isGreaterThanOrEqualTo(25);

        // A full compaction rewrites every file with deleted rows: no vectors are left.
        TableCommit third = table.newStreamCommit("u3");
        try (TableWrite write = table.newWrite()) {
            write.compact(BinaryRow.EMPTY_ROW, 0, true);
            third.commit(1, write.prepareCommit());
        }
        assertThat(dvEntries()).isEmpty();
        assertThat(TestTables.readAll(table)).isEqualTo(expected(model));
        assertThat(liveFiles()).extracting(e -> e.file().rowCount()).containsExactly((long) model.size());
    }

    @Test
    void aCommitOverDeletionVectorsAnotherWriterReplacedIsAConflict() throws Exception {
        create();
        TableCommit commit = table.newStreamCommit("u");
        try (TableWrite write = table.newWrite()) {
            upsert(write, 0, 50, "a");
            write.compact(BinaryRow.EMPTY_ROW, 0, true);
            commit.commit(1, write.prepareCommit());
        }
        try (TableWrite one = table.newWrite(); TableWrite two = table.newWrite()) {
            upsert(one, 0, 5, "x");
            upsert(two, 20, 25, "y");
            var first = one.prepareCommit();
            var second = two.prepareCommit();
            table.newStreamCommit("one").commit(1, first);
            assertThatThrownBy(() -> table.newStreamCommit("two").commit(1, second))
                    .isInstanceOf(CommitConflictException.class)
                    .hasMessageContaining("deletion vectors of bucket 0")
                    .hasMessageContaining("another job compacted this bucket concurrently");
        }
        assertThat(TestTables.readAll(table)).hasSize(50).contains("+I(0, x0)", "+I(20, a20)");
    }
}
