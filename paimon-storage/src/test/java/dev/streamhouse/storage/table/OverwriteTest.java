package dev.streamhouse.storage.table;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.index.IndexFileMeta;
import dev.streamhouse.storage.index.IndexManifestEntry;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.operation.CommitConflictException;
import dev.streamhouse.storage.operation.InvalidCommitException;
import dev.streamhouse.storage.schema.Schema;
import dev.streamhouse.storage.schema.SchemaChange;
import dev.streamhouse.storage.schema.SchemaManager;
import dev.streamhouse.storage.snapshot.CommitKind;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.table.sink.BatchTableCommit;
import dev.streamhouse.storage.commit.CommitMessage;
import dev.streamhouse.storage.table.sink.TableCommit;
import dev.streamhouse.storage.table.sink.TableWrite;
import dev.streamhouse.storage.table.source.DataSplit;
import dev.streamhouse.storage.testutils.TestTables;
import dev.streamhouse.storage.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** INSERT OVERWRITE (static, partial, dynamic), TRUNCATE TABLE and DROP PARTITION as OVERWRITE commits. */
class OverwriteTest {
    @TempDir
    java.nio.file.Path tmp;

    private Path root;
    private int tables;

    /** (id INT, name STRING, dt STRING, hr INT), partitioned by the given keys. */
    private FileStoreTable appendTable(String... partitionKeys) throws Exception {
        root = new Path(tmp.resolve("t" + tables++).toString());
        return TestTables.create(LocalFileIO.INSTANCE, root, Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("name", DataTypes.STRING())
                .column("dt", DataTypes.STRING())
                .column("hr", DataTypes.INT())
                .partitionKeys(partitionKeys)
                .build());
    }

    private static InternalRow row(int id, String name, String dt, Integer hr) {
        return GenericRow.of(id, BinaryString.fromString(name), dt == null ? null : BinaryString.fromString(dt), hr);
    }

    private static void append(Table table, InternalRow... rows) throws Exception {
        TestTables.write(table, List.of(rows));
    }

    private static List<CommitMessage> overwriteWrite(Table table, InternalRow... rows) throws Exception {
        try (TableWrite w = table.newOverwriteWrite()) {
            for (InternalRow r : rows) {
                w.write(r);
            }
            return w.prepareCommit();
        }
    }

    private static Snapshot latest(Table table) {
        return table.latestSnapshot().orElseThrow();
    }

    private FileStoreTable threePartitions() throws Exception {
        FileStoreTable table = appendTable("dt");
        append(table, row(1, "a", "d0", 0), row(2, "b", "d1", 0), row(3, "c", "d1", 0), row(4, "d", "d2", 0));
        return table;
    }

    @Test
    void staticPartitionOverwriteReplacesOnlyThatPartition() throws Exception {
        FileStoreTable table = threePartitions();
        List<CommitMessage> messages = overwriteWrite(table, row(10, "x", "d1", 1));
        try (BatchTableCommit commit = table.newBatchCommit()) {
            commit.overwrite(Map.of("dt", "d1"), messages);
        }
        assertThat(TestTables.readAll(table)).containsExactly("+I(1, a, d0, 0)", "+I(10, x, d1, 1)", "+I(4, d, d2, 0)");
        Snapshot s = latest(table);
        assertThat(s.id()).isEqualTo(2);
        assertThat(s.commitKind()).isEqualTo(CommitKind.OVERWRITE);
        assertThat(s.deltaRecordCount()).isEqualTo(1 - 2);
        assertThat(s.totalRecordCount()).isEqualTo(3);
    }

    @Test
    void messagesOutsideTheStaticPartitionAreRefused() throws Exception {
        FileStoreTable table = threePartitions();
        List<CommitMessage> messages = overwriteWrite(table, row(10, "x", "d1", 0), row(11, "y", "d2", 0));
        try (BatchTableCommit commit = table.newBatchCommit()) {
            assertThatThrownBy(() -> commit.overwrite(Map.of("dt", "d1"), messages))
                    .isInstanceOf(InvalidCommitException.class)
                    .hasMessage("Cannot overwrite partition dt=d1 of table default.test: written files belong to "
                            + "partition dt=d2, which is outside it; write only rows of the overwritten partition or "
                            + "overwrite a wider one");
            assertThatThrownBy(() -> commit.overwrite(Map.of("day", "d1"), messages))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("Cannot use partition spec {day=d1} for table default.test: 'day' is not a partition "
                            + "key; partition keys are [dt]");
            commit.abort(messages);
        }
        assertThat(latest(table).id()).isEqualTo(1);
        assertThat(TestTables.readAll(table)).hasSize(4);
    }

    @Test
    void emptySpecOverwritesTheWholeTableAndWithoutRowsPurgesIt() throws Exception {
        FileStoreTable table = threePartitions();
        try (BatchTableCommit commit = table.newBatchCommit()) {
            commit.overwrite(Map.of(), overwriteWrite(table, row(10, "x", "d9", 0)));
        }
        assertThat(TestTables.readAll(table)).containsExactly("+I(10, x, d9, 0)");
        try (BatchTableCommit commit = table.newBatchCommit()) {
            commit.overwrite(Map.of(), List.of());
        }
        assertThat(TestTables.readAll(table)).isEmpty();
        assertThat(latest(table).commitKind()).isEqualTo(CommitKind.OVERWRITE);
        assertThat(latest(table).totalRecordCount()).isZero();
    }

    @Test
    void partialSpecMatchesAllSubPartitionsAndNullUsesTheDefaultName() throws Exception {
        FileStoreTable table = appendTable("dt", "hr");
        append(table, row(1, "a", "d1", 1), row(2, "b", "d1", 2), row(3, "c", "d2", 1), row(4, "n", null, 1),
                row(5, "m", "d1", null));
        try (BatchTableCommit commit = table.newBatchCommit()) {
            commit.overwrite(Map.of("dt", "d1"), overwriteWrite(table, row(10, "x", "d1", 3)));
        }
        assertThat(TestTables.readAll(table))
                .containsExactly("+I(10, x, d1, 3)", "+I(3, c, d2, 1)", "+I(4, n, null, 1)");
        try (BatchTableCommit commit = table.newBatchCommit()) {
            commit.overwrite(Map.of("dt", "__DEFAULT_PARTITION__", "hr", "1"), overwriteWrite(table, row(11, "y", null, 1)));
        }
        assertThat(TestTables.readAll(table))
                .containsExactly("+I(10, x, d1, 3)", "+I(11, y, null, 1)", "+I(3, c, d2, 1)");
        // An INT partition value given as SQL text.
        try (BatchTableCommit commit = table.newBatchCommit()) {
            commit.overwrite(Map.of("hr", "3"), List.of());
        }
        assertThat(TestTables.readAll(table)).containsExactly("+I(11, y, null, 1)", "+I(3, c, d2, 1)");
        try (BatchTableCommit commit = table.newBatchCommit()) {
            assertThatThrownBy(() -> commit.overwrite(Map.of("hr", "three"), List.of()))
                    .hasMessage("Cannot use partition spec {hr=three} for table default.test: value 'three' of "
                            + "partition key 'hr' is not a valid INT (expected a number of type INT)");
        }
    }

    @Test
    void dynamicOverwriteReplacesOnlyTheWrittenPartitions() throws Exception {
        FileStoreTable table = threePartitions();
        try (BatchTableCommit commit = table.newBatchCommit()) {
            commit.overwriteDynamicPartitions(overwriteWrite(table, row(10, "x", "d1", 0), row(11, "y", "d3", 0)));
        }
        assertThat(TestTables.readAll(table))
                .containsExactly("+I(1, a, d0, 0)", "+I(10, x, d1, 0)", "+I(11, y, d3, 0)", "+I(4, d, d2, 0)");
        assertThat(latest(table).commitKind()).isEqualTo(CommitKind.OVERWRITE);

        try (BatchTableCommit commit = table.newBatchCommit()) {
            commit.overwriteDynamicPartitions(List.of());
        }
        assertThat(latest(table).id()).isEqualTo(2);
    }

    @Test
    void dynamicOverwriteOfAnUnpartitionedTableReplacesEverything() throws Exception {
        FileStoreTable table = appendTable();
        append(table, row(1, "a", "d0", 0), row(2, "b", "d1", 0));
        try (BatchTableCommit commit = table.newBatchCommit()) {
            commit.overwriteDynamicPartitions(overwriteWrite(table, row(3, "c", "d2", 0)));
        }
        assertThat(TestTables.readAll(table)).containsExactly("+I(3, c, d2, 0)");
    }

    @Test
    void truncateDeletesEverythingAndAnEmptyTableStaysWithoutSnapshot() throws Exception {
        FileStoreTable empty = appendTable("dt");
        try (BatchTableCommit commit = empty.newBatchCommit()) {
            commit.truncateTable();
        }
        assertThat(empty.latestSnapshot()).isEmpty();

        append(empty, row(1, "a", "d0", 0), row(2, "b", "d1", 0));
        TableCommit stream = empty.newStreamCommit("job");
        stream.truncateTable(7);
        assertThat(TestTables.readAll(empty)).isEmpty();
        Snapshot s = latest(empty);
        assertThat(s.commitKind()).isEqualTo(CommitKind.OVERWRITE);
        assertThat(s.commitIdentifier()).isEqualTo(7);
        assertThat(s.totalRecordCount()).isZero();
        assertThat(s.deltaRecordCount()).isEqualTo(-2);
        assertThat(stream.filterCommitted(List.of(6L, 7L, 8L))).containsExactly(8L);
    }

    @Test
    void dropPartitionsDeletesTheMatchingPartitions() throws Exception {
        FileStoreTable table = appendTable("dt", "hr");
        append(table, row(1, "a", "d1", 1), row(2, "b", "d1", 2), row(3, "c", "d2", 1), row(4, "d", "d3", 1),
                row(5, "n", null, 4));
        try (BatchTableCommit commit = table.newBatchCommit()) {
            commit.dropPartitions(List.of(Map.of("dt", "d1"), Map.of("dt", "d3", "hr", "1"),
                    Map.of("dt", "__DEFAULT_PARTITION__")));
        }
        assertThat(TestTables.readAll(table)).containsExactly("+I(3, c, d2, 1)");
        assertThat(latest(table).commitKind()).isEqualTo(CommitKind.OVERWRITE);
        long id = latest(table).id();
        try (BatchTableCommit commit = table.newBatchCommit()) {
            commit.dropPartitions(List.of(Map.of("dt", "nope")));
        }
        assertThat(latest(table).id()).isEqualTo(id);

        TableCommit commit = table.newStreamCommit("job");
        assertThatThrownBy(() -> commit.dropPartitions(1, List.of()))
                .hasMessage("Cannot drop partitions of table default.test: no partition spec given");
        assertThatThrownBy(() -> commit.dropPartitions(1, List.of(Map.of())))
                .hasMessageContaining("a partition spec is empty, which would drop every partition; use TRUNCATE TABLE");
        FileStoreTable unpartitioned = appendTable();
        assertThatThrownBy(() -> unpartitioned.newStreamCommit("job").dropPartitions(1, List.of(Map.of("dt", "d1"))))
                .hasMessage("Cannot drop partitions of table default.test: it is not partitioned; use TRUNCATE TABLE "
                        + "to delete all rows");
    }

    @Test
    void overwriteReplacesFilesAppendedAfterItsWriterStarted() throws Exception {
        FileStoreTable table = threePartitions();
        List<CommitMessage> messages = overwriteWrite(table, row(10, "x", "d1", 0));
        // Another job appends to the partition before the overwrite commits: the overwrite reads the
        // live files when it commits, so it replaces those rows too.
        append(table, row(20, "late", "d1", 0), row(21, "other", "d2", 0));
        try (BatchTableCommit commit = table.newBatchCommit()) {
            commit.overwrite(Map.of("dt", "d1"), messages);
        }
        assertThat(TestTables.readAll(table))
                .containsExactly("+I(1, a, d0, 0)", "+I(10, x, d1, 0)", "+I(21, other, d2, 0)", "+I(4, d, d2, 0)");
    }

    // ---- primary-key tables ----

    @Test
    void fixedBucketAppendPartitionOfAnotherBucketCountIsRefusedUntilOverwritten() throws Exception {
        root = new Path(tmp.resolve("append-fixed").toString());
        FileStoreTable table = TestTables.create(LocalFileIO.INSTANCE, root, Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("name", DataTypes.STRING())
                .column("dt", DataTypes.STRING())
                .column("hr", DataTypes.INT())
                .partitionKeys("dt")
                .option("bucket", "2")
                .option("bucket-key", "id")
                .build());
        append(table, row(1, "a", "d1", 1), row(2, "b", "d1", 1), row(3, "c", "d2", 1));
        new SchemaManager(LocalFileIO.INSTANCE, root).commitChanges(List.of(SchemaChange.setOption("bucket", "3")));
        FileStoreTable rescaled = FileStoreTable.load(LocalFileIO.INSTANCE, root, "default.test");
        try (TableWrite w = rescaled.newWrite()) {
            assertThatThrownBy(() -> w.write(row(4, "d", "d1", 1)))
                    .hasMessageContaining("partition dt=d1 of table default.test")
                    .hasMessageContaining("written with 2 buckets").hasMessageContaining("'bucket' is now 3")
                    .hasMessageContaining("CALL sys.rescale(`table` => 'default.test', `partition` => 'dt=d1')");
        }
        try (BatchTableCommit commit = rescaled.newBatchCommit()) {
            commit.overwrite(Map.of("dt", "d1"), overwriteWrite(rescaled, row(1, "a", "d1", 1), row(2, "b", "d1", 1)));
        }
        append(rescaled, row(4, "d", "d1", 1));
        assertThat(TestTables.readAll(rescaled)).containsExactlyInAnyOrder("+I(1, a, d1, 1)", "+I(2, b, d1, 1)",
                "+I(3, c, d2, 1)", "+I(4, d, d1, 1)");
    }

    private FileStoreTable pkTable(String... options) throws Exception {
        root = new Path(tmp.resolve("pk").toString());
        Schema.Builder b = Schema.newBuilder()
                .column("dt", DataTypes.STRING())
                .column("id", DataTypes.INT())
                .column("v", DataTypes.BIGINT())
                .partitionKeys("dt")
                .primaryKey("dt", "id");
        for (int i = 0; i < options.length; i += 2) {
            b.option(options[i], options[i + 1]);
        }
        return TestTables.create(LocalFileIO.INSTANCE, root, b.build());
    }

    private static InternalRow pk(String dt, int id, long v) {
        return GenericRow.of(BinaryString.fromString(dt), id, v);
    }

    private static InternalRow[] keys(String dt, int from, int count, long v) {
        InternalRow[] rows = new InternalRow[count];
        for (int i = 0; i < count; i++) {
            rows[i] = pk(dt, from + i, v);
        }
        return rows;
    }

    private List<IndexManifestEntry> indexEntries(FileStoreTable table) throws Exception {
        String manifest = latest(table).indexManifest();
        return manifest == null ? List.of() : table.indexManifestFile().read(manifest);
    }

    private static Set<String> partitionsOf(List<IndexManifestEntry> entries) {
        Set<String> out = new HashSet<>();
        for (IndexManifestEntry e : entries) {
            out.add(e.partition().stringAt(0).toString());
        }
        return out;
    }

    @Test
    void dynamicBucketOverwriteRemovesTheIndexFilesOfReplacedPartitions() throws Exception {
        FileStoreTable table = pkTable("dynamic-bucket.target-row-num", "5");
        append(table, keys("d1", 0, 20, 1));
        append(table, keys("d2", 0, 3, 2));
        List<IndexManifestEntry> before = indexEntries(table);
        long d1Buckets = before.stream().filter(e -> e.partition().stringAt(0).toString().equals("d1")).count();
        assertThat(d1Buckets).isEqualTo(4);
        assertThat(partitionsOf(before)).containsExactly("d1", "d2");

        try (BatchTableCommit commit = table.newBatchCommit()) {
            commit.overwriteDynamicPartitions(overwriteWrite(table, keys("d1", 100, 3, 9)));
        }
        List<IndexManifestEntry> after = indexEntries(table);
        assertThat(after).allMatch(e -> e.indexFile().indexType().equals(IndexFileMeta.HASH_INDEX));
        assertThat(after.stream().filter(e -> e.partition().stringAt(0).toString().equals("d1")))
                .singleElement().satisfies(e -> assertThat(e.indexFile().rowCount()).isEqualTo(3));
        assertThat(after.stream().filter(e -> e.partition().stringAt(0).toString().equals("d2"))).hasSize(1);
        List<String> expected = new ArrayList<>(List.of("+I(d1, 100, 9)", "+I(d1, 101, 9)", "+I(d1, 102, 9)",
                "+I(d2, 0, 2)", "+I(d2, 1, 2)", "+I(d2, 2, 2)"));
        assertThat(TestTables.readAll(table)).isEqualTo(expected);

        // The new index is the one writers use: an upsert of an overwritten key updates it in place.
        append(table, pk("d1", 101, 50), pk("d1", 0, 60));
        assertThat(TestTables.readAll(table)).containsExactly("+I(d1, 0, 60)", "+I(d1, 100, 9)", "+I(d1, 101, 50)",
                "+I(d1, 102, 9)", "+I(d2, 0, 2)", "+I(d2, 1, 2)", "+I(d2, 2, 2)");

        try (BatchTableCommit commit = table.newBatchCommit()) {
            commit.truncateTable();
        }
        assertThat(indexEntries(table)).isEmpty();
        assertThat(TestTables.readAll(table)).isEmpty();
    }

    @Test
    void fixedBucketPartitionIsRescaledByOverwrite() throws Exception {
        FileStoreTable table = pkTable("bucket", "2");
        append(table, keys("d1", 0, 10, 1));
        append(table, keys("d2", 0, 4, 2));
        new SchemaManager(LocalFileIO.INSTANCE, root).commitChanges(List.of(SchemaChange.setOption("bucket", "4")));
        FileStoreTable rescaled = FileStoreTable.load(LocalFileIO.INSTANCE, root, "default.test");
        try (TableWrite w = rescaled.newWrite()) {
            assertThatThrownBy(() -> w.write(pk("d1", 1, 5))).hasMessageContaining("partition dt=d1 of table default.test").hasMessageContaining("2 buckets").hasMessageContaining("CALL sys.rescale");
        }
        // Rewrite partition d1 with its current content, now in 4 buckets.
        List<InternalRow> d1 = new ArrayList<>(List.of(keys("d1", 0, 10, 1)));
        try (BatchTableCommit commit = rescaled.newBatchCommit()) {
            commit.overwrite(Map.of("dt", "d1"), overwriteWrite(rescaled, d1.toArray(new InternalRow[0])));
        }
        Map<String, Set<Integer>> totalBuckets = new java.util.TreeMap<>();
        for (DataSplit split : rescaled.newReadBuilder().newScan().plan().splits()) {
            totalBuckets.computeIfAbsent(split.partition().stringAt(0).toString(), k -> new HashSet<>())
                    .add(split.totalBuckets());
        }
        assertThat(totalBuckets).containsEntry("d1", Set.of(4)).containsEntry("d2", Set.of(2));
        append(rescaled, pk("d1", 3, 33));
        List<String> rows = TestTables.readAll(rescaled);
        assertThat(rows).hasSize(14).contains("+I(d1, 3, 33)").doesNotContain("+I(d1, 3, 1)");
    }

    @Test
    void aCompactionOfOverwrittenFilesFailsWithAConflict() throws Exception {
        FileStoreTable table = pkTable("bucket", "1");
        append(table, keys("d1", 0, 3, 1));
        append(table, keys("d1", 3, 3, 1));
        BinaryRow d1 = table.newReadBuilder().newScan().plan().splits().get(0).partition();
        List<CommitMessage> compaction;
        try (TableWrite w = table.newWrite()) {
            w.compact(d1, 0, true);
            compaction = w.prepareCommit();
        }
        try (BatchTableCommit commit = table.newBatchCommit()) {
            commit.overwrite(Map.of("dt", "d1"), overwriteWrite(table, pk("d1", 9, 9)));
        }
        TableCommit late = table.newStreamCommit("compactor");
        assertThatThrownBy(() -> late.commit(1, compaction)).isInstanceOf(CommitConflictException.class)
                .hasMessageContaining("no longer live");
        assertThat(TestTables.readAll(table)).containsExactly("+I(d1, 9, 9)");
    }

    @Test
    void messagesOfAWriterThatCompactedExistingFilesAreRefused() throws Exception {
        FileStoreTable table = pkTable("bucket", "1");
        append(table, keys("d1", 0, 3, 1));
        List<CommitMessage> messages;
        try (TableWrite w = table.newWrite()) {
            w.write(pk("d1", 9, 9));
            BinaryRow d1 = table.newReadBuilder().newScan().plan().splits().get(0).partition();
            w.compact(d1, 0, true);
            messages = w.prepareCommit();
        }
        try (BatchTableCommit commit = table.newBatchCommit()) {
            assertThatThrownBy(() -> commit.overwrite(Map.of("dt", "d1"), messages))
                    .isInstanceOf(InvalidCommitException.class)
                    .hasMessageContaining("which was already in the table")
                    .hasMessageContaining("Table.newOverwriteWrite");
        }
        assertThat(latest(table).id()).isEqualTo(1);
    }

    @Test
    void overwriteWriterCompactingItsOwnFilesCommitsOverwriteThenCompact() throws Exception {
        FileStoreTable table = pkTable("bucket", "1");
        append(table, keys("d1", 0, 5, 1));
        List<CommitMessage> messages;
        try (TableWrite w = table.newOverwriteWrite()) {
            for (InternalRow r : keys("d1", 10, 3, 2)) {
                w.write(r);
            }
            BinaryRow partition = table.newReadBuilder().newScan().plan().splits().get(0).partition();
            w.compact(partition, 0, true);
            messages = w.prepareCommit();
        }
        TableCommit commit = table.newStreamCommit("job");
        commit.overwrite(5, Map.of("dt", "d1"), messages);
        Snapshot last = latest(table);
        List<CommitKind> kinds = new ArrayList<>();
        for (long id = 2; id <= last.id(); id++) {
            kinds.add(table.snapshotManager().snapshot(id).commitKind());
            assertThat(table.snapshotManager().snapshot(id).commitIdentifier()).isEqualTo(5);
        }
        assertThat(kinds).containsExactly(CommitKind.OVERWRITE, CommitKind.COMPACT);
        assertThat(TestTables.readAll(table)).containsExactly("+I(d1, 10, 2)", "+I(d1, 11, 2)", "+I(d1, 12, 2)");
        List<DataFileMeta> files = table.newReadBuilder().newScan().plan().splits().get(0).files();
        assertThat(files).isNotEmpty().allMatch(f -> f.level() > 0);
    }
}
