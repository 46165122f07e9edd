package dev.streamhouse.storage.table;

import dev.streamhouse.storage.commit.CommitMessage;
import dev.streamhouse.storage.commit.CompactIncrement;
import dev.streamhouse.storage.commit.DataIncrement;
import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.snapshot.CommitKind;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.table.sink.TableCommit;
import dev.streamhouse.storage.table.sink.TableWrite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Writers of fixed-bucket append tables compact their buckets as Apache Paimon 1.3.1's do: one write
 * over many commits (as a streaming job's writer) keeps every bucket at a few files, rows stay in
 * write order per bucket, sequence numbers continue without overlap, every compaction is committed
 * exactly once, and a restored job continues from what the table holds.
 */
class AppendWriterCompactionTest {
    private static final int ROWS_PER_COMMIT = 8;

    @TempDir
    java.nio.file.Path tmp;

    private long nextValue;

    /** A table of two fixed buckets per partition. */
    private FileStoreTable create(String name, String... options) throws Exception {
        return AppendTables.create(LocalFileIO.INSTANCE, tmp.resolve(name), "2", options);
    }

    /** A table of one bucket per partition: every commit writes to every bucket. */
    private FileStoreTable createOneBucket(String name, String... options) throws Exception {
        return AppendTables.create(LocalFileIO.INSTANCE, tmp.resolve(name), "1", options);
    }

    /** Writes the next rows (both partitions, both buckets) and prepares the commit. */
    private List<CommitMessage> writeAndPrepare(TableWrite write, boolean waitCompaction) throws Exception {
        for (int i = 0; i < ROWS_PER_COMMIT; i++) {
            write.write(AppendTables.row(nextValue++));
        }
        return write.prepareCommit(waitCompaction);
    }

    private List<Long> written() {
        return LongStream.range(0, nextValue).boxed().toList();
    }

    private static long compactSnapshots(FileStoreTable table) throws Exception {
        long n = 0;
        for (long id = 1; id <= table.snapshotManager().latestSnapshotId(); id++) {
            if (table.snapshotManager().snapshot(id).commitKind() == CommitKind.COMPACT) {
                n++;
            }
        }
        return n;
    }

    @Test
    void aWriterOverManyCommitsKeepsEveryBucketAtAFewFilesInWriteOrder() throws Exception {
        FileStoreTable table = create("many");
        try (TableWrite write = table.newWrite(); TableCommit commit = table.newStreamCommit("job")) {
            for (long checkpoint = 1; checkpoint <= 30; checkpoint++) {
                commit.commit(checkpoint, writeAndPrepare(write, true));
                assertThat(AppendTables.filesByBucket(table).values()).as("files per bucket after commit %s",
                        checkpoint).allMatch(files -> files <= 5);
            }
        }
        assertThat(AppendTables.filesByBucket(table)).hasSize(4);
        assertThat(compactSnapshots(table)).as("one COMPACT snapshot every few commits").isGreaterThanOrEqualTo(6);
        assertThat(AppendTables.values(table)).isEqualTo(written());
        AppendTables.assertBucketsInOrder(table);
        assertThat(AppendTables.strayDataFiles(table, tmp.resolve("many"))).isEmpty();
    }

    @Test
    void compactionsLeftRunningAtACommitTravelWithALaterOneExactlyOnce() throws Exception {
        FileStoreTable table = create("later");
        try (TableWrite write = table.newWrite(); TableCommit commit = table.newStreamCommit("job")) {
            for (long checkpoint = 1; checkpoint <= 24; checkpoint++) {
                commit.commit(checkpoint, writeAndPrepare(write, false));
            }
            // The end of the input waits for the last compaction.
            commit.commit(25, write.prepareCommit(true));
        }
        assertThat(compactSnapshots(table)).isPositive();
        assertThat(AppendTables.values(table)).isEqualTo(written());
        AppendTables.assertBucketsInOrder(table);
        assertThat(AppendTables.strayDataFiles(table, tmp.resolve("later"))).isEmpty();
    }

    /**
     * A commit that does not wait never carries the compaction it starts; with
     * {@code commit.force-compact} it does: the checkpoint that completes a window of
     * {@code compaction.min.file-num} files also commits their compaction.
     */
    @Test
    void commitForceCompactMakesEveryCommitWaitForTheCompactionItStarts() throws Exception {
        FileStoreTable table = createOneBucket("force", "commit.force-compact", "true", "compaction.min.file-num",
                "3");
        try (TableWrite write = table.newWrite(); TableCommit commit = table.newStreamCommit("job")) {
            for (long checkpoint = 1; checkpoint <= 12; checkpoint++) {
                commit.commit(checkpoint, writeAndPrepare(write, false));
                assertThat(AppendTables.filesByBucket(table).values()).allMatch(files -> files <= 2);
            }
        }
        assertThat(compactIdentifiers(table)).containsExactly(3L, 5L, 7L, 9L, 11L);
        AppendTables.assertBucketsInOrder(table);

        FileStoreTable plain = createOneBucket("noforce", "compaction.min.file-num", "3");
        try (TableWrite write = plain.newWrite(); TableCommit commit = plain.newStreamCommit("job")) {
            for (long checkpoint = 1; checkpoint <= 3; checkpoint++) {
                commit.commit(checkpoint, writeAndPrepare(write, false));
            }
        }
        assertThat(compactIdentifiers(plain)).as("without the option, checkpoint 3 only starts the compaction")
                .isEmpty();
    }

    private static List<Long> compactIdentifiers(FileStoreTable table) throws Exception {
        List<Long> out = new ArrayList<>();
        for (long id = 1; id <= table.snapshotManager().latestSnapshotId(); id++) {
            Snapshot s = table.snapshotManager().snapshot(id);
            if (s.commitKind() == CommitKind.COMPACT) {
                out.add(s.commitIdentifier());
            }
        }
        return out;
    }

    @Test
    void writeOnlyWritersNeverCompactButAnExplicitCompactionStillDoes() throws Exception {
        FileStoreTable table = create("writeonly", "write-only", "true");
        try (TableWrite write = table.newWrite(); TableCommit commit = table.newStreamCommit("job")) {
            for (long checkpoint = 1; checkpoint <= 8; checkpoint++) {
                commit.commit(checkpoint, writeAndPrepare(write, true));
            }
        }
        assertThat(compactSnapshots(table)).isZero();
        assertThat(AppendTables.filesByBucket(table).values()).as("a file per commit that wrote the bucket")
                .allMatch(files -> files >= 7);

        dev.streamhouse.storage.table.sink.TableCompactor.forTable(table).compact();
        assertThat(AppendTables.filesByBucket(table).values()).containsOnly(1);
        assertThat(AppendTables.values(table)).isEqualTo(written());
        AppendTables.assertBucketsInOrder(table);
    }

    @Test
    void forceRewriteAllFilesMakesAFullCompactionRewriteEvenTwoFiles() throws Exception {
        FileStoreTable forced = createOneBucket("forced", "compaction.force-rewrite-all-files", "true");
        FileStoreTable plain = createOneBucket("plain");
        for (FileStoreTable table : List.of(forced, plain)) {
            try (TableWrite write = table.newWrite(); TableCommit commit = table.newStreamCommit("job")) {
                commit.commit(1, writeAndPrepare(write, true));
                commit.commit(2, writeAndPrepare(write, true));
            }
            dev.streamhouse.storage.table.sink.TableCompactor.forTable(table).compact();
        }
        assertThat(AppendTables.filesByBucket(forced).values()).containsOnly(1);
        assertThat(AppendTables.filesByBucket(plain).values()).as("a full compaction needs three files").containsOnly(2);
        AppendTables.assertBucketsInOrder(forced);
    }

    @Test
    void aRestoredJobCommitsTheLostCheckpointsDataAndContinuesTheBuckets() throws Exception {
        FileStoreTable table = create("restore", "compaction.min.file-num", "4");
        TableWrite first = table.newWrite();
        List<CommitMessage> lost;
        try (TableCommit commit = table.newStreamCommit("job")) {
            for (long checkpoint = 1; checkpoint <= 6; checkpoint++) {
                commit.commit(checkpoint, writeAndPrepare(first, true));
            }
            lost = writeAndPrepare(first, true);
        }
        assertThat(lost).as("checkpoint 7 carries compactions").anyMatch(m -> !m.compactIncrement().isEmpty());
        // The job fails before checkpoint 7 is committed; its writer goes away.
        first.close();

        // The restored committer commits checkpoint 7's data and drops its compactions, as the sink's does.
        try (TableCommit commit = table.newStreamCommit("job")) {
            assertThat(commit.filterCommitted(List.of(7L))).containsExactly(7L);
            commit.commit(7, dataOnly(lost));
            commit.abort(compactionsOnly(lost));
        }
        // The restored writer starts from the table and goes on.
        try (TableWrite write = table.newWrite(); TableCommit commit = table.newStreamCommit("job")) {
            for (long checkpoint = 8; checkpoint <= 16; checkpoint++) {
                commit.commit(checkpoint, writeAndPrepare(write, true));
            }
        }
        assertThat(AppendTables.values(table)).isEqualTo(written());
        AppendTables.assertBucketsInOrder(table);
        assertThat(AppendTables.filesByBucket(table).values()).allMatch(files -> files < 4);
        assertThat(AppendTables.strayDataFiles(table, tmp.resolve("restore"))).isEmpty();
    }

    @Test
    void aCompactionLostBetweenACheckpointsTwoSnapshotsLeavesNoFilesBehind() throws Exception {
        FileStoreTable table = create("between", "compaction.min.file-num", "3");
        List<CommitMessage> messages;
        try (TableWrite write = table.newWrite(); TableCommit commit = table.newStreamCommit("job")) {
            commit.commit(1, writeAndPrepare(write, true));
            commit.commit(2, writeAndPrepare(write, true));
            messages = writeAndPrepare(write, true);
            // Only the APPEND snapshot of checkpoint 3 lands before the job fails.
            commit.commit(3, dataOnly(messages));
        }
        assertThat(messages).anyMatch(m -> !m.compactIncrement().isEmpty());
        try (TableCommit restored = table.newStreamCommit("job")) {
            assertThat(restored.filterCommitted(List.of(3L))).isEmpty();
            assertThat(restored.abortCompactionsIfNotCommitted(3, messages)).isTrue();
        }
        assertThat(AppendTables.strayDataFiles(table, tmp.resolve("between"))).isEmpty();
        assertThat(AppendTables.values(table)).isEqualTo(written());

        // Had the COMPACT snapshot landed, nothing is deleted.
        try (TableWrite write = table.newWrite(); TableCommit commit = table.newStreamCommit("job")) {
            List<CommitMessage> next = writeAndPrepare(write, true);
            assertThat(next).anyMatch(m -> !m.compactIncrement().isEmpty());
            commit.commit(4, next);
            assertThat(commit.abortCompactionsIfNotCommitted(4, next)).isFalse();
        }
        assertThat(AppendTables.values(table)).isEqualTo(written());
        AppendTables.assertBucketsInOrder(table);
        assertThat(AppendTables.strayDataFiles(table, tmp.resolve("between"))).isEmpty();
    }

    static List<CommitMessage> dataOnly(List<CommitMessage> messages) {
        List<CommitMessage> out = new ArrayList<>();
        for (CommitMessage m : messages) {
            if (!m.dataIncrement().isEmpty()) {
                out.add(new CommitMessage(m.partition(), m.bucket(), m.totalBuckets(), m.dataIncrement(),
                        CompactIncrement.EMPTY));
            }
        }
        return out;
    }

    static List<CommitMessage> compactionsOnly(List<CommitMessage> messages) {
        List<CommitMessage> out = new ArrayList<>();
        for (CommitMessage m : messages) {
            if (!m.compactIncrement().isEmpty()) {
                out.add(new CommitMessage(m.partition(), m.bucket(), m.totalBuckets(), DataIncrement.EMPTY,
                        m.compactIncrement()));
            }
        }
        return out;
    }
}
