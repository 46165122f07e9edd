package dev.streamhouse.storage.table;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.operation.CommitConflictException;
import dev.streamhouse.storage.schema.Schema;
import dev.streamhouse.storage.snapshot.CommitKind;
import dev.streamhouse.storage.commit.CommitMessage;
import dev.streamhouse.storage.table.sink.TableCompactor;
import dev.streamhouse.storage.table.sink.TableWrite;
import dev.streamhouse.storage.table.source.DataSplit;
import dev.streamhouse.storage.testutils.FailingFileIO;
import dev.streamhouse.storage.testutils.TestTables;
import dev.streamhouse.storage.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TableCompactorTest {
    @TempDir
    java.nio.file.Path tmp;

    private FileStoreTable create(boolean partitioned, boolean primaryKey) throws Exception {
        Schema.Builder b = Schema.newBuilder()
                .column("dt", DataTypes.STRING())
                .column("id", DataTypes.INT())
                .column("v", DataTypes.BIGINT())
                .option("bucket", primaryKey ? "3" : "-1");
        if (primaryKey) {
            b.primaryKey(partitioned ? List.of("dt", "id") : List.of("id"));
        }
        if (partitioned) {
            b.partitionKeys("dt");
        }
        return TestTables.create(LocalFileIO.INSTANCE, new Path(tmp.resolve("t").toString()), b.build());
    }

    private static InternalRow row(RowKind kind, String dt, int id, long v) {
        return GenericRow.ofKind(kind, BinaryString.fromString(dt), id, v);
    }

    /** Three commits of upserts and deletes over both partitions, so every bucket has level-0 files. */
    private static void writeHistory(FileStoreTable table) throws Exception {
        for (int c = 1; c <= 3; c++) {
            try (TableWrite w = table.newWrite()) {
                for (int id = 0; id < 40; id++) {
                    String dt = id % 2 == 0 ? "a" : "b";
                    w.write(row(c == 3 && id % 5 == 0 ? RowKind.DELETE : RowKind.INSERT, dt, id, c * 100L + id));
                }
                table.newStreamCommit("writer").commit(c, w.prepareCommit());
            }
        }
    }

    private static List<DataFileMeta> liveFiles(FileStoreTable table, String dt) {
        return table.newReadBuilder().newScan().plan().splits().stream()
                .filter(s -> dt == null || s.partition().stringAt(0).toString().equals(dt))
                .flatMap(s -> s.files().stream()).toList();
    }

    @Test
    void fullCompactionLeavesEveryBucketOneRunOnTheLastLevelWithTheSameRows() throws Exception {
        FileStoreTable table = create(true, true);
        writeHistory(table);
        List<String> before = TestTables.readAll(table);
        long snapshotBefore = table.latestSnapshot().orElseThrow().id();

        TableCompactor.Result result = new TableCompactor(table).withParallelism(2).compact();

        assertThat(result.buckets()).isEqualTo(6);
        assertThat(result.changedBuckets()).isEqualTo(6);
        assertThat(result.snapshotId()).contains(snapshotBefore + 1);
        assertThat(table.latestSnapshot().orElseThrow().commitKind()).isEqualTo(CommitKind.COMPACT);
        for (DataSplit split : table.newReadBuilder().newScan().plan().splits()) {
            assertThat(split.files()).hasSize(1);
            assertThat(split.files()).allMatch(f -> f.level() == 5 && f.deleteRowCountOrZero() == 0);
        }
        assertThat(TestTables.readAll(table)).containsExactlyInAnyOrderElementsOf(before);
        assertThat(before).hasSize(32);

        TableCompactor.Result again = new TableCompactor(table).compact();
        assertThat(again.changedBuckets()).isZero();
        assertThat(again.snapshotId()).isEmpty();
        assertThat(table.latestSnapshot().orElseThrow().id()).isEqualTo(snapshotBefore + 1);
    }

    @Test
    void partitionsLimitWhatIsCompacted() throws Exception {
        FileStoreTable table = create(true, true);
        writeHistory(table);
        List<DataFileMeta> untouched = liveFiles(table, "b");

        TableCompactor.Result result = new TableCompactor(table).withPartitions(List.of(Map.of("dt", "a"))).compact();

        assertThat(result.buckets()).isEqualTo(3);
        assertThat(liveFiles(table, "a")).allMatch(f -> f.level() == 5);
        assertThat(liveFiles(table, "b")).containsExactlyInAnyOrderElementsOf(untouched);
        assertThatThrownBy(() -> new TableCompactor(table).withPartitions(List.of(Map.of("nope", "a"))).compact())
                .hasMessageContaining("'nope' is not a partition key");
    }

    @Test
    void emptyTableCommitsNothing() throws Exception {
        FileStoreTable table = create(false, true);
        TableCompactor.Result result = new TableCompactor(table).compact();
        assertThat(result.buckets()).isZero();
        assertThat(table.latestSnapshot()).isEmpty();
    }

    @Test
    void aConcurrentCompactionOfTheSameBucketsConflictsAndOnlyOneLands() throws Exception {
        FileStoreTable table = create(false, true);
        writeHistory(table);
        // A streaming job's writer compacts the buckets from the same snapshot as we do.
        List<CommitMessage> otherMessages;
        try (TableWrite other = table.newWrite()) {
            for (int bucket = 0; bucket < 3; bucket++) {
                other.compact(BinaryRow.EMPTY_ROW, bucket, true);
            }
            otherMessages = other.prepareCommit();
        }
        List<String> rowsBefore = TestTables.readAll(table);
        long snapshotBefore = table.latestSnapshot().orElseThrow().id();

        new TableCompactor(table).compact();
        assertThatThrownBy(() -> table.newStreamCommit("other").commit(10, otherMessages))
                .isInstanceOf(CommitConflictException.class);
        assertThat(table.latestSnapshot().orElseThrow().id()).isEqualTo(snapshotBefore + 1);
        assertThat(TestTables.readAll(table)).containsExactlyInAnyOrderElementsOf(rowsBefore);
    }

    @Test
    void aFileSystemFailureAtAnyCallLeavesTheTableWholeAndARetryFinishes() throws Exception {
        FailingFileIO io = FailingFileIO.wrap(LocalFileIO.INSTANCE);
        int[] attempt = {0};
        Path[] root = new Path[1];
        List<String>[] rows = new List[1];
        try {
            int points = io.failEachCallInTurn(() -> {
                root[0] = new Path(tmp.resolve("f" + attempt[0]++).toString());
                FileStoreTable setup = TestTables.create(io.delegate(), root[0], historySchema());
                writeHistory(setup);
                rows[0] = TestTables.readAll(setup);
                new TableCompactor(FileStoreTable.load(io, root[0], "default.test")).withParallelism(2).compact();
            }, (failedCall, thrown) -> {
                FileStoreTable plain = FileStoreTable.load(io.delegate(), root[0], "default.test");
                assertThat(TestTables.readAll(plain)).as("rows after call %s failed (%s)", failedCall, thrown)
                        .containsExactlyInAnyOrderElementsOf(rows[0]);
                new TableCompactor(plain).compact();
                assertThat(TestTables.readAll(plain)).containsExactlyInAnyOrderElementsOf(rows[0]);
                for (DataSplit split : plain.newReadBuilder().newScan().plan().splits()) {
                    assertThat(split.files()).as("bucket %s after the retry", split.bucket())
                            .hasSize(1).allMatch(f -> f.level() == 5);
                }
            });
            assertThat(points).isGreaterThan(10);
        } finally {
            io.release();
        }
    }

    private static Schema historySchema() {
        return Schema.newBuilder()
                .column("dt", DataTypes.STRING())
                .column("id", DataTypes.INT())
                .column("v", DataTypes.BIGINT())
                .option("bucket", "3")
                .primaryKey("id")
                .build();
    }
}
