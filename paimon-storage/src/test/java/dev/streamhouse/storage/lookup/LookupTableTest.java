package dev.streamhouse.storage.lookup;

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.InternalRowUtils;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.predicate.PredicateBuilder;
import dev.streamhouse.storage.schema.Schema;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.table.Table;
import dev.streamhouse.storage.table.sink.BatchTableCommit;
import dev.streamhouse.storage.table.sink.TableWrite;
import dev.streamhouse.storage.testutils.TestTables;
import dev.streamhouse.storage.types.DataTypes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@link LookupTable}: what a lookup join sees of a table, and how it follows new snapshots. */
class LookupTableTest {
    @TempDir
    java.nio.file.Path tmp;

    private final List<LookupTable> opened = new ArrayList<>();

    @AfterEach
    void closeAll() {
        opened.forEach(LookupTable::close);
    }

    private FileStoreTable create(Schema.Builder schema) throws Exception {
        return TestTables.create(LocalFileIO.INSTANCE, new Path(tmp.resolve("t").toString()), schema.build());
    }

    /** {@code dim(id INT PK, name STRING, v BIGINT)}, 2 buckets. */
    private FileStoreTable primaryKeyTable(String... options) throws Exception {
        Schema.Builder b = Schema.newBuilder()
                .column("id", DataTypes.INT().notNull())
                .column("name", DataTypes.STRING())
                .column("v", DataTypes.BIGINT())
                .primaryKey("id")
                .option("bucket", "2");
        for (int i = 0; i < options.length; i += 2) {
            b.option(options[i], options[i + 1]);
        }
        return create(b);
    }

    private static GenericRow row(RowKind kind, int id, String name, long v) {
        return GenericRow.ofKind(kind, id, BinaryString.fromString(name), v);
    }

    private static GenericRow row(int id, String name, long v) {
        return row(RowKind.INSERT, id, name, v);
    }

    private static void write(Table table, InternalRow... rows) throws Exception {
        TestTables.write(table, Arrays.asList(rows));
    }

    private LookupTable open(Table table, int[] output, int[] joinKeys, dev.streamhouse.storage.predicate.Predicate filter,
            boolean onDisk) throws Exception {
        return open(table, output, joinKeys, filter, onDisk ? LookupTable.Store.DISK : LookupTable.Store.HEAP, 16L << 20);
    }

    private LookupTable open(Table table, int[] output, int[] joinKeys, dev.streamhouse.storage.predicate.Predicate filter,
            LookupTable.Store store, long memory) throws Exception {
        java.nio.file.Path dir = Files.createTempDirectory(tmp, "cache");
        LookupTable cache = LookupTable.create(table, output, joinKeys, filter,
                new LookupTable.Settings(store, dir, memory, Long.MAX_VALUE, 2));
        opened.add(cache);
        cache.open();
        return cache;
    }

    private static List<String> find(LookupTable cache, Object... key) {
        List<String> out = new ArrayList<>();
        for (InternalRow r : cache.lookup(GenericRow.of(key))) {
            out.add(InternalRowUtils.copyToGeneric(r, cache.outputType()).toString());
        }
        out.sort(null);
        return out;
    }

    @Test
    void tablesOfMergeEnginesThatCombineVersionsAreRefusedNamingTheEngine() throws Exception {
        for (String engine : new String[] {"partial-update", "aggregation", "first-row"}) {
            java.nio.file.Path root = tmp.resolve(engine);
            FileStoreTable table = TestTables.create(LocalFileIO.INSTANCE, new Path(root.toString()),
                    Schema.newBuilder().column("id", DataTypes.INT().notNull()).column("v", DataTypes.BIGINT())
                            .primaryKey("id").option("bucket", "1").option("merge-engine", engine).build());
            assertThatThrownBy(() -> LookupTable.create(table, new int[] {0, 1}, new int[] {0}, null,
                    new LookupTable.Settings(LookupTable.Store.HEAP, Files.createTempDirectory(tmp, "c"), 1L << 20,
                            Long.MAX_VALUE, 1)))
                    .as(engine).isInstanceOf(UnsupportedOperationException.class)
                    .hasMessageContaining("'" + engine + "'");
        }
    }

    @ParameterizedTest(name = "on disk: {0}")
    @ValueSource(booleans = {true, false})
    void joinOnThePrimaryKeyFollowsInsertsUpdatesAndDeletes(boolean onDisk) throws Exception {
        FileStoreTable table = primaryKeyTable();
        write(table, row(1, "a", 10), row(2, "b", 20));
        LookupTable cache = open(table, new int[] {0, 1, 2}, new int[] {0}, null, onDisk);

        assertThat(find(cache, 1)).containsExactly("+I(1, a, 10)");
        assertThat(find(cache, 3)).isEmpty();

        write(table, row(3, "c", 30), row(RowKind.UPDATE_AFTER, 1, "a2", 11), row(RowKind.DELETE, 2, "b", 20));
        assertThat(find(cache, 3)).as("not refreshed yet").isEmpty();
        assertThat(cache.refresh()).isTrue();
        assertThat(find(cache, 1)).containsExactly("+I(1, a2, 11)");
        assertThat(find(cache, 2)).isEmpty();
        assertThat(find(cache, 3)).containsExactly("+I(3, c, 30)");
        assertThat(cache.refresh()).as("nothing new").isFalse();
        assertThat(cache.loads()).isEqualTo(1);
        assertThat(cache.pendingSnapshots()).isZero();
    }

    @Test
    void aCacheOpenedOnAnEmptyTableFollowsItsFirstCommits() throws Exception {
        FileStoreTable table = primaryKeyTable();
        LookupTable cache = open(table, new int[] {0, 1}, new int[] {0}, null, true);
        assertThat(find(cache, 1)).isEmpty();
        assertThat(cache.refresh()).as("nothing committed yet").isFalse();
        write(table, row(1, "a", 10));
        write(table, row(RowKind.UPDATE_AFTER, 1, "b", 11));
        assertThat(cache.refresh()).isTrue();
        assertThat(find(cache, 1)).containsExactly("+I(1, b)");
        assertThat(cache.snapshotId()).isEqualTo(2);
        assertThat(cache.loads()).isEqualTo(1);
    }

    @Test
    void outputIsTheProjectionInItsOrder() throws Exception {
        FileStoreTable table = primaryKeyTable();
        write(table, row(1, "a", 10));
        LookupTable cache = open(table, new int[] {2, 1}, new int[] {0}, null, true);
        assertThat(find(cache, 1)).containsExactly("+I(10, a)");
    }

    @ParameterizedTest(name = "on disk: {0}")
    @ValueSource(booleans = {true, false})
    void joinOnAnotherColumnFindsEveryRowAndForgetsTheOldValueOfAnUpdatedRow(boolean onDisk) throws Exception {
        FileStoreTable table = primaryKeyTable();
        write(table, row(1, "x", 10), row(2, "x", 20), row(3, "y", 30));
        LookupTable cache = open(table, new int[] {0, 2}, new int[] {1}, null, onDisk);
        assertThat(find(cache, BinaryString.fromString("x"))).containsExactly("+I(1, 10)", "+I(2, 20)");

        write(table, row(RowKind.UPDATE_AFTER, 2, "y", 21), row(RowKind.DELETE, 1, "x", 10), row(4, null, 40));
        cache.refresh();
        assertThat(find(cache, BinaryString.fromString("x"))).isEmpty();
        assertThat(find(cache, BinaryString.fromString("y"))).containsExactly("+I(2, 21)", "+I(3, 30)");
        assertThat(cache.lookup(GenericRow.of((Object) null))).as("NULL matches nothing").isEmpty();
    }

    @Test
    void joinOnAPrefixOfTheKeyFindsEveryRowOfThePrefix() throws Exception {
        FileStoreTable table = create(Schema.newBuilder()
                .column("id", DataTypes.INT().notNull())
                .column("dt", DataTypes.STRING().notNull())
                .column("v", DataTypes.BIGINT())
                .primaryKey("id", "dt")
                .option("bucket", "2"));
        TestTables.write(table, List.of(GenericRow.of(1, BinaryString.fromString("d1"), 1L),
                GenericRow.of(1, BinaryString.fromString("d2"), 2L), GenericRow.of(2, BinaryString.fromString("d1"), 3L)));
        LookupTable cache = open(table, new int[] {0, 1, 2}, new int[] {0}, null, true);
        assertThat(find(cache, 1)).containsExactly("+I(1, d1, 1)", "+I(1, d2, 2)");
    }

    @Test
    void joinOnTheKeyInAnotherOrderThanDeclared() throws Exception {
        FileStoreTable table = create(Schema.newBuilder()
                .column("a", DataTypes.INT().notNull())
                .column("b", DataTypes.STRING().notNull())
                .column("v", DataTypes.BIGINT())
                .primaryKey("a", "b")
                .option("bucket", "1"));
        TestTables.write(table, List.of(GenericRow.of(1, BinaryString.fromString("x"), 7L)));
        LookupTable cache = open(table, new int[] {2}, new int[] {1, 0}, null, true);
        assertThat(find(cache, BinaryString.fromString("x"), 1)).containsExactly("+I(7)");
        assertThat(find(cache, BinaryString.fromString("y"), 1)).isEmpty();
    }

    @ParameterizedTest(name = "on disk: {0}")
    @ValueSource(booleans = {true, false})
    void appendTableKeepsEveryRowOfAKey(boolean onDisk) throws Exception {
        FileStoreTable table = TestTables.create(LocalFileIO.INSTANCE, new Path(tmp.resolve("a").toString()),
                TestTables.simpleSchema());
        TestTables.write(table, List.of(TestTables.row(1, "a", "d0"), TestTables.row(1, "a", "d1"),
                TestTables.row(2, "b", "d0")));
        LookupTable cache = open(table, new int[] {0, 1, 2}, new int[] {0}, null, onDisk);
        assertThat(find(cache, 1)).containsExactly("+I(1, a, d0)", "+I(1, a, d1)");

        TestTables.write(table, List.of(TestTables.row(1, "a", "d0")));
        cache.refresh();
        assertThat(find(cache, 1)).containsExactly("+I(1, a, d0)", "+I(1, a, d0)", "+I(1, a, d1)");
    }

    @Test
    void filteredRowsAreNotCachedAndARowThatStopsMatchingIsRemoved() throws Exception {
        FileStoreTable table = primaryKeyTable();
        write(table, row(1, "a", 10), row(2, "b", 200));
        PredicateBuilder pb = new PredicateBuilder(table.rowType());
        LookupTable cache = open(table, new int[] {0, 1}, new int[] {0}, pb.lessThan(2, 100L), true);
        assertThat(find(cache, 1)).containsExactly("+I(1, a)");
        assertThat(find(cache, 2)).isEmpty();

        write(table, row(RowKind.UPDATE_AFTER, 1, "a", 500), row(RowKind.UPDATE_AFTER, 2, "b", 5));
        cache.refresh();
        assertThat(find(cache, 1)).isEmpty();
        assertThat(find(cache, 2)).containsExactly("+I(2, b)");
    }

    @Test
    void withSequenceFieldAnOlderVersionCommittedLaterDoesNotWin() throws Exception {
        FileStoreTable table = primaryKeyTable("sequence.field", "v");
        write(table, row(1, "new", 10));
        LookupTable cache = open(table, new int[] {0, 1, 2}, new int[] {0}, null, true);
        write(table, row(1, "old", 5));
        write(table, row(RowKind.DELETE, 1, "old", 6));
        cache.refresh();
        assertThat(find(cache, 1)).containsExactly("+I(1, new, 10)");
        assertThat(TestTables.readAll(table)).as("the table agrees").containsExactly("+I(1, new, 10)");
    }

    @Test
    void overwriteLoadsTheTableAnew() throws Exception {
        FileStoreTable table = primaryKeyTable();
        write(table, row(1, "a", 10), row(2, "b", 20));
        LookupTable cache = open(table, new int[] {0, 1, 2}, new int[] {0}, null, true);
        try (TableWrite w = table.newOverwriteWrite(); BatchTableCommit c = table.newBatchCommit()) {
            w.write(row(3, "c", 30));
            c.overwrite(Map.of(), w.prepareCommit());
        }
        assertThat(cache.refresh()).isTrue();
        assertThat(cache.loads()).isEqualTo(2);
        assertThat(find(cache, 1)).isEmpty();
        assertThat(find(cache, 3)).containsExactly("+I(3, c, 30)");
    }

    @Test
    void anExpiredSnapshotLoadsTheTableAnewInsteadOfFailing() throws Exception {
        FileStoreTable table = primaryKeyTable();
        write(table, row(1, "a", 10));
        LookupTable cache = open(table, new int[] {0, 1, 2}, new int[] {0}, null, true);
        write(table, row(2, "b", 20));
        write(table, row(RowKind.UPDATE_AFTER, 1, "a2", 11));
        Files.delete(tmp.resolve("t/snapshot/snapshot-2"));

        assertThat(cache.refresh()).isTrue();
        assertThat(cache.loads()).isEqualTo(2);
        assertThat(find(cache, 1)).containsExactly("+I(1, a2, 11)");
        assertThat(find(cache, 2)).containsExactly("+I(2, b, 20)");
        assertThat(cache.snapshotId()).isEqualTo(3);
    }

    @Test
    void maxPtFollowsTheNewestPartition() throws Exception {
        FileStoreTable table = create(Schema.newBuilder()
                .column("id", DataTypes.INT().notNull())
                .column("v", DataTypes.STRING())
                .column("dt", DataTypes.STRING().notNull())
                .partitionKeys("dt")
                .primaryKey("id", "dt")
                .option("bucket", "1")
                .option("scan.partitions", "max_pt()"));
        TestTables.write(table, List.of(TestTables.row(1, "old", "2024-01-01"), TestTables.row(1, "new", "2024-01-02")));
        LookupTable cache = open(table, new int[] {0, 1, 2}, new int[] {0}, null, true);
        assertThat(find(cache, 1)).containsExactly("+I(1, new, 2024-01-02)");

        TestTables.write(table, List.of(TestTables.row(1, "newer", "2024-01-03"), TestTables.row(2, "x", "2024-01-03")));
        cache.refresh();
        assertThat(find(cache, 2)).as("the new partition is not selected before the partitions are refreshed")
                .isEmpty();
        assertThat(cache.refreshPartitions()).isTrue();
        assertThat(find(cache, 1)).containsExactly("+I(1, newer, 2024-01-03)");
        assertThat(find(cache, 2)).containsExactly("+I(2, x, 2024-01-03)");
        assertThat(cache.refreshPartitions()).isFalse();
    }

    @Test
    void maxPtByLevelSelectsEveryPartitionOfTheNewestFirstKey() throws Exception {
        FileStoreTable table = create(Schema.newBuilder()
                .column("id", DataTypes.INT().notNull())
                .column("dt", DataTypes.STRING().notNull())
                .column("hr", DataTypes.INT().notNull())
                .partitionKeys("dt", "hr")
                .primaryKey("id", "dt", "hr")
                .option("bucket", "1")
                .option("scan.partitions", "dt=max_pt()"));
        TestTables.write(table, List.of(GenericRow.of(1, BinaryString.fromString("2024-01-01"), 23),
                GenericRow.of(2, BinaryString.fromString("2024-01-02"), 1),
                GenericRow.of(3, BinaryString.fromString("2024-01-02"), 2)));
        LookupTable cache = open(table, new int[] {0, 2}, new int[] {0}, null, true);
        assertThat(find(cache, 1)).as("an older dt, even with a larger hr").isEmpty();
        assertThat(find(cache, 2)).containsExactly("+I(2, 1)");
        assertThat(find(cache, 3)).containsExactly("+I(3, 2)");
    }

    @Test
    void maxPtLevelsMustBeTheFirstPartitionKeys() throws Exception {
        FileStoreTable table = create(Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("dt", DataTypes.STRING())
                .column("hr", DataTypes.INT())
                .partitionKeys("dt", "hr"));
        assertThatThrownBy(() -> LookupTable.validate(table.copy(Map.of("scan.partitions", "hr=max_pt()")),
                new int[] {0}, new int[] {0}, null))
                .hasMessageContaining("'scan.partitions' = 'hr=max_pt()'")
                .hasMessageContaining("must name the first partition keys");
    }

    @Test
    void maxPtIsRefusedForOrdinaryReads() throws Exception {
        FileStoreTable table = create(Schema.newBuilder()
                .column("id", DataTypes.INT())
                .column("dt", DataTypes.STRING())
                .partitionKeys("dt")
                .option("scan.partitions", "max_pt()"));
        assertThatThrownBy(() -> table.newReadBuilder().newScan())
                .hasMessageContaining("scan.partitions")
                .hasMessageContaining("only followed by lookup joins");
    }

    @Test
    void fixedScanPartitionsRestrictEveryRead() throws Exception {
        FileStoreTable table = TestTables.create(LocalFileIO.INSTANCE, new Path(tmp.resolve("a").toString()),
                TestTables.simpleSchema("scan.partitions", "dt=d1"));
        TestTables.write(table, TestTables.rows(0, 4, 2));
        assertThat(TestTables.readAll(table)).containsExactly("+I(1, name-1, d1)", "+I(3, name-3, d1)");
        LookupTable cache = open(table, new int[] {0, 2}, new int[] {0}, null, true);
        assertThat(find(cache, 0)).isEmpty();
        assertThat(find(cache, 1)).containsExactly("+I(1, d1)");
    }

    @Test
    void aCacheLargerThanTheDiskLimitFailsNamingTheOption() throws Exception {
        FileStoreTable table = primaryKeyTable();
        List<InternalRow> rows = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            rows.add(row(i, "name-" + i, i));
        }
        TestTables.write(table, rows);
        LookupTable cache = LookupTable.create(table, new int[] {0, 1, 2}, new int[] {0}, null,
                new LookupTable.Settings(LookupTable.Store.DISK, Files.createTempDirectory(tmp, "small"), 16L << 20, 1024,
                        1));
        opened.add(cache);
        assertThatThrownBy(cache::open).hasMessageContaining("'lookup.cache-max-disk-size'");
    }

    @Test
    void aHeapCacheThatOutgrowsItsBudgetMovesToLocalDisk() throws Exception {
        FileStoreTable table = primaryKeyTable();
        List<InternalRow> rows = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            rows.add(row(i, "name-" + i, i));
        }
        TestTables.write(table, rows);
        LookupTable cache = open(table, new int[] {0, 1, 2}, new int[] {0}, null, LookupTable.Store.HEAP_THEN_DISK,
                100 * 200);
        assertThat(cache.isOnDisk()).as("100 rows fit").isFalse();
        assertThat(find(cache, 7)).containsExactly("+I(7, name-7, 7)");

        rows.clear();
        for (int i = 100; i < 2000; i++) {
            rows.add(row(i, "name-" + i, i));
        }
        TestTables.write(table, rows);
        assertThat(cache.refresh()).isTrue();
        assertThat(cache.isOnDisk()).as("2000 rows do not").isTrue();
        assertThat(find(cache, 7)).containsExactly("+I(7, name-7, 7)");
        assertThat(find(cache, 1999)).containsExactly("+I(1999, name-1999, 1999)");

        LookupTable big = open(table, new int[] {0}, new int[] {0}, null, LookupTable.Store.HEAP_THEN_DISK, 100 * 200);
        assertThat(big.isOnDisk()).as("a load beyond the budget goes to disk").isTrue();
        assertThat(find(big, 1500)).containsExactly("+I(1500)");
    }

    @Test
    void closeDeletesTheLocalFiles() throws Exception {
        FileStoreTable table = primaryKeyTable();
        write(table, row(1, "a", 10));
        java.nio.file.Path dir = Files.createTempDirectory(tmp, "cache");
        LookupTable cache = LookupTable.create(table, new int[] {0}, new int[] {0}, null,
                new LookupTable.Settings(LookupTable.Store.DISK, dir, 16L << 20, Long.MAX_VALUE, 1));
        cache.open();
        assertThat(cache.diskBytes()).isPositive();
        cache.close();
        try (var files = Files.list(dir)) {
            assertThat(files).isEmpty();
        }
    }
}
