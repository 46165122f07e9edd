package dev.streamhouse.storage.table;

import dev.streamhouse.storage.commit.CommitMessage;
import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.manifest.FileSource;
import dev.streamhouse.storage.operation.CommitConflictException;
import dev.streamhouse.storage.schema.Schema;
import dev.streamhouse.storage.snapshot.CommitKind;
import dev.streamhouse.storage.table.sink.BatchTableCommit;
import dev.streamhouse.storage.table.sink.TableCompactor;
import dev.streamhouse.storage.types.RowType;
import dev.streamhouse.storage.data.InternalRowUtils;
import dev.streamhouse.storage.table.sink.TableWrite;
import dev.streamhouse.storage.table.source.DataSplit;
import dev.streamhouse.storage.testutils.FailingFileIO;
import dev.streamhouse.storage.testutils.TestTables;
import dev.streamhouse.storage.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code CALL sys.compact} on append tables: small files merged, rows and (for fixed buckets) row order kept. */
class AppendCompactionTest {
    @TempDir
    java.nio.file.Path tmp;

    private FileStoreTable create(String name, String bucket, String... options) throws Exception {
        Schema.Builder b = Schema.newBuilder()
                .column("dt", DataTypes.STRING())
                .column("id", DataTypes.INT())
                .column("v", DataTypes.BIGINT())
                .partitionKeys("dt")
                .option("bucket", bucket);
        if (!bucket.equals("-1")) {
            b.option("bucket-key", "id");
        }
        for (int i = 0; i < options.length; i += 2) {
            b.option(options[i], options[i + 1]);
        }
        return TestTables.create(LocalFileIO.INSTANCE, new Path(tmp.resolve(name).toString()), b.build());
    }

    /** {@code commits} commits of 20 rows each over partitions a and b; row v numbers the rows in write order. */
    private static void writeCommits(FileStoreTable table, int commits) throws Exception {
        for (int c = 0; c < commits; c++) {
            try (TableWrite w = table.newWrite(); BatchTableCommit commit = table.newBatchCommit()) {
                for (int i = 0; i < 20; i++) {
                    long v = c * 20L + i;
                    w.write(GenericRow.of(BinaryString.fromString(i % 2 == 0 ? "a" : "b"), (int) (v % 7), v));
                }
                commit.commit(w.prepareCommit());
            }
        }
    }

    private static List<DataFileMeta> files(FileStoreTable table) throws Exception {
        List<DataFileMeta> out = new ArrayList<>();
        for (DataSplit split : table.newReadBuilder().newScan().plan().splits()) {
            out.addAll(split.files());
        }
        return out;
    }

    /** The rows of each bucket in read order, as "partition/bucket: rows". */
    private static List<String> rowsByBucket(FileStoreTable table) throws Exception {
        List<String> out = new ArrayList<>();
        List<DataSplit> splits = new ArrayList<>(table.newReadBuilder().newScan().plan().splits());
        splits.sort(Comparator.comparing((DataSplit s) -> s.partition().toString()).thenComparingInt(DataSplit::bucket));
        for (DataSplit split : splits) {
            List<String> rows = new ArrayList<>();
            RowType type = table.rowType();
            table.newReadBuilder().newRead().createReader(split)
                    .forEachRemaining(r -> rows.add(InternalRowUtils.copyToGeneric(r, type).toString()));
            out.add(split.partition() + "/" + split.bucket() + ": " + rows);
        }
        return out;
    }

    @Test
    void fullCompactionOfABucketUnawareTableMergesEachPartitionsSmallFiles() throws Exception {
        FileStoreTable table = create("unaware", "-1");
        writeCommits(table, 4);
        assertThat(files(table)).hasSize(8);
        List<String> rows = TestTables.readAll(table);

        TableCompactor.Result result = new TableCompactor(table).compact();

        assertThat(result.changedBuckets()).isEqualTo(2);
        assertThat(table.latestSnapshot().orElseThrow().commitKind()).isEqualTo(CommitKind.COMPACT);
        assertThat(files(table)).hasSize(2).allMatch(f -> f.fileSource() == FileSource.COMPACT)
                .allMatch(f -> f.rowCount() == 40);
        assertThat(TestTables.readAll(table)).containsExactlyInAnyOrderElementsOf(rows);
        assertThat(new TableCompactor(table).compact().snapshotId()).as("nothing left to compact").isEmpty();
    }

    @Test
    void aFixedBucketKeepsItsRowOrderAndSequenceNumbersThroughWritesAndCompaction() throws Exception {
        FileStoreTable table = create("fixed", "2");
        writeCommits(table, 3);
        // Each commit's files continue their bucket's sequence numbers.
        for (DataSplit split : table.newReadBuilder().newScan().plan().splits()) {
            List<DataFileMeta> bySeq = new ArrayList<>(split.files());
            bySeq.sort(Comparator.comparingLong(DataFileMeta::minSequenceNumber));
            assertThat(bySeq.get(0).minSequenceNumber()).isZero();
            for (int i = 1; i < bySeq.size(); i++) {
                assertThat(bySeq.get(i).minSequenceNumber()).isEqualTo(bySeq.get(i - 1).maxSequenceNumber() + 1);
            }
        }
        List<String> before = rowsByBucket(table);

        new TableCompactor(table).compact();

        for (DataSplit split : table.newReadBuilder().newScan().plan().splits()) {
            assertThat(split.files()).hasSize(1);
            DataFileMeta f = split.files().get(0);
            assertThat(f.minSequenceNumber()).isZero();
            assertThat(f.maxSequenceNumber()).isEqualTo(f.rowCount() - 1);
        }
        assertThat(rowsByBucket(table)).isEqualTo(before);

        // Writes after the compaction number on from it.
        writeCommits(table, 1);
        for (DataSplit split : table.newReadBuilder().newScan().plan().splits()) {
            long max = split.files().stream().mapToLong(DataFileMeta::maxSequenceNumber).max().orElseThrow();
            long rows = split.files().stream().mapToLong(DataFileMeta::rowCount).sum();
            assertThat(max).isEqualTo(rows - 1);
        }
    }

    @Test
    void minorCompactionWaitsForCompactionMinFileNum() throws Exception {
        FileStoreTable table = create("minor", "1", "compaction.min.file-num", "4");
        writeCommits(table, 3);
        assertThat(new TableCompactor(table).withFullCompaction(false).compact().snapshotId()).isEmpty();

        writeCommits(table, 1);
        new TableCompactor(table).withFullCompaction(false).compact();
        assertThat(files(table)).hasSize(2).allMatch(f -> f.rowCount() == 40);
    }

    @Test
    void onlyTheNamedPartitionsAreCompacted() throws Exception {
        FileStoreTable table = create("parts", "-1");
        writeCommits(table, 3);
        new TableCompactor(table).withPartitions(List.of(Map.of("dt", "a"))).compact();
        assertThat(files(table)).hasSize(4);
    }

    @Test
    void aConcurrentCompactionOfTheSameFilesConflictsAndOnlyOneLands() throws Exception {
        FileStoreTable table = create("race", "-1");
        writeCommits(table, 3);
        List<CommitMessage> other;
        try (TableWrite w = table.newWrite()) {
            w.compact(partition(table, "a"), 0, true);
            other = w.prepareCommit();
        }
        assertThat(other).hasSize(1);
        List<String> rows = TestTables.readAll(table);

        new TableCompactor(table).compact();
        try (BatchTableCommit commit = table.newBatchCommit()) {
            assertThatThrownBy(() -> commit.commit(other)).isInstanceOf(CommitConflictException.class);
        }
        assertThat(TestTables.readAll(table)).containsExactlyInAnyOrderElementsOf(rows);
    }

    private static BinaryRow partition(FileStoreTable table, String dt) throws Exception {
        for (DataSplit split : table.newReadBuilder().newScan().plan().splits()) {
            if (split.partition().toString().contains(dt)) {
                return split.partition();
            }
        }
        throw new AssertionError("no partition " + dt);
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
                FileStoreTable setup = TestTables.create(io.delegate(), root[0], Schema.newBuilder()
                        .column("dt", DataTypes.STRING()).column("id", DataTypes.INT()).column("v", DataTypes.BIGINT())
                        .option("bucket", "2").option("bucket-key", "id").build());
                writeCommits(setup, 3);
                rows[0] = TestTables.readAll(setup);
                new TableCompactor(FileStoreTable.load(io, root[0], "default.test")).withParallelism(2).compact();
            }, (failedCall, thrown) -> {
                FileStoreTable plain = FileStoreTable.load(io.delegate(), root[0], "default.test");
                assertThat(TestTables.readAll(plain)).as("rows after call %s failed (%s)", failedCall, thrown)
                        .containsExactlyInAnyOrderElementsOf(rows[0]);
                new TableCompactor(plain).compact();
                assertThat(TestTables.readAll(plain)).containsExactlyInAnyOrderElementsOf(rows[0]);
                assertThat(files(plain)).as("files after the retry").hasSize(2);
            });
            assertThat(points).isGreaterThan(10);
        } finally {
            io.release();
        }
    }
}
