package dev.streamhouse.flink.sink.committer;

import dev.streamhouse.flink.sink.compat.HarnessCheckpointing;
import dev.streamhouse.flink.sink.CommitAction;
import dev.streamhouse.flink.sink.committable.Committable;
import dev.streamhouse.flink.sink.committable.CommittableTypeInfo;
import dev.streamhouse.flink.sink.testutils.SinkTables;
import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.snapshot.CommitKind;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.commit.CommitMessage;
import dev.streamhouse.storage.table.sink.TableCommit;
import dev.streamhouse.storage.table.sink.TableWrite;
import dev.streamhouse.storage.testutils.TestTables;
import org.apache.flink.api.common.serialization.SerializerConfigImpl;
import org.apache.flink.runtime.checkpoint.OperatorSubtaskState;
import org.apache.flink.streaming.util.OneInputStreamOperatorTestHarness;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.Set;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static dev.streamhouse.flink.sink.testutils.SinkTables.append;
import static dev.streamhouse.flink.sink.testutils.SinkTables.exists;
import static dev.streamhouse.flink.sink.testutils.SinkTables.messages;
import static dev.streamhouse.flink.sink.testutils.SinkTables.snapshots;
import static dev.streamhouse.flink.sink.testutils.SinkTables.storageRow;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The committer through checkpoints, restores and failures, in Flink's operator test harness. */
class CommitterOperatorTest {
    private static final String USER = "committer-test";

    @TempDir
    java.nio.file.Path tmp;

    private java.nio.file.Path dir;
    private FileStoreTable table;

    @BeforeEach
    void createTable() throws Exception {
        dir = tmp.resolve("t");
        table = append(dir);
    }

    private OneInputStreamOperatorTestHarness<Committable, Void> harness(String user, CommitAction action,
            boolean checkpointing) throws Exception {
        return harness(table, user, action, checkpointing);
    }

    private static OneInputStreamOperatorTestHarness<Committable, Void> harness(FileStoreTable table, String user,
            CommitAction action, boolean checkpointing) throws Exception {
        OneInputStreamOperatorTestHarness<Committable, Void> h = new OneInputStreamOperatorTestHarness<>(
                new CommitterOperator(table, user, action),
                CommittableTypeInfo.INSTANCE.createSerializer(new SerializerConfigImpl()));
        HarnessCheckpointing.set(h, checkpointing);
        return h;
    }

    private OneInputStreamOperatorTestHarness<Committable, Void> streaming() throws Exception {
        return harness(USER, CommitAction.append(), true);
    }

    private List<CommitMessage> rows(int from, int to) throws Exception {
        List<dev.streamhouse.storage.data.InternalRow> rows = new ArrayList<>();
        for (int i = from; i < to; i++) {
            rows.add(storageRow(i, i, "d" + (i % 2)));
        }
        return messages(table, rows.toArray(new dev.streamhouse.storage.data.InternalRow[0]));
    }

    private static List<Long> identifiers(FileStoreTable table) {
        return snapshots(table).stream().map(Snapshot::commitIdentifier).toList();
    }

    @Test
    void commitsEachCheckpointOnceWhenItCompletes() throws Exception {
        try (OneInputStreamOperatorTestHarness<Committable, Void> h = streaming()) {
            h.open();
            h.processElement(Committable.ofCheckpoint(1, rows(0, 10)), 0);
            h.snapshot(1, 1);
            assertThat(snapshots(table)).as("nothing before the checkpoint completes").isEmpty();
            h.processElement(Committable.ofCheckpoint(2, rows(10, 20)), 0);
            h.snapshot(2, 2);
            h.processElement(Committable.ofCheckpoint(3, rows(20, 30)), 0);
            // Checkpoint 1's notification was lost; 2's completes both, in order; 3 is not yet complete.
            h.notifyOfCompletedCheckpoint(2);
            assertThat(identifiers(table)).containsExactly(1L, 2L);
            assertThat(snapshots(table)).allMatch(s -> s.commitUser().equals(USER));
            assertThat(TestTables.readAll(table)).hasSize(20);
            h.notifyOfCompletedCheckpoint(2);
            assertThat(identifiers(table)).containsExactly(1L, 2L);
        }
    }

    @Test
    void restoredCheckpointsAreCommittedOnceWhileInitializing() throws Exception {
        OperatorSubtaskState state;
        try (OneInputStreamOperatorTestHarness<Committable, Void> h = streaming()) {
            h.open();
            h.processElement(Committable.ofCheckpoint(1, rows(0, 10)), 0);
            h.processElement(Committable.ofCheckpoint(1, rows(10, 15)), 0);
            state = h.snapshot(1, 1);
            // The job fails before the notification of checkpoint 1 reaches the committer.
        }
        assertThat(snapshots(table)).isEmpty();

        try (OneInputStreamOperatorTestHarness<Committable, Void> h = harness("another-user", CommitAction.append(),
                true)) {
            h.initializeState(state);
            // Committed by the restored commit user, not the configured one.
            assertThat(identifiers(table)).containsExactly(1L);
            assertThat(snapshots(table).get(0).commitUser()).isEqualTo(USER);
            h.open();
            h.processElement(Committable.ofCheckpoint(2, rows(15, 20)), 0);
            h.snapshot(2, 2);
            h.notifyOfCompletedCheckpoint(2);
        }
        // A second restore from checkpoint 1 (e.g. after another failure) must not commit it again.
        try (OneInputStreamOperatorTestHarness<Committable, Void> h = streaming()) {
            h.initializeState(state);
            h.open();
        }
        assertThat(identifiers(table)).containsExactly(1L, 2L);
        assertThat(TestTables.readAll(table)).hasSize(20);
    }

    @Test
    void restoredCheckpointCommitsItsDataButDropsItsCompactions() throws Exception {
        java.nio.file.Path pkDir = tmp.resolve("pk");
        FileStoreTable pk = SinkTables.create(pkDir, true, false, "bucket", "1");
        pk.newStreamCommit(USER).commit(1, messages(pk, storageRow(1, 1, "a"), storageRow(2, 2, "a")));
        pk.newStreamCommit(USER).commit(2, messages(pk, storageRow(3, 3, "a")));
        List<CommitMessage> withCompaction;
        try (TableWrite w = pk.newWrite()) {
            w.write(storageRow(1, 100, "a"));
            w.compact(BinaryRow.EMPTY_ROW, 0, true);
            withCompaction = w.prepareCommit();
        }
        CommitMessage m = withCompaction.get(0);
        assertThat(m.newFiles()).isNotEmpty();
        assertThat(m.compactIncrement().compactAfter()).isNotEmpty();
        Set<String> inputs = new HashSet<>();
        m.compactIncrement().compactBefore().forEach(f -> inputs.add(f.fileName()));
        List<String> outputs = m.compactIncrement().compactAfter().stream().map(f -> f.fileName())
                .filter(name -> !inputs.contains(name)).toList();
        assertThat(outputs).isNotEmpty();
        assertThat(SinkTables.dataFiles(pkDir).stream().map(p -> p.getFileName().toString())).containsAll(outputs);

        OperatorSubtaskState state;
        try (OneInputStreamOperatorTestHarness<Committable, Void> h = harness(pk, USER, CommitAction.append(), true)) {
            h.open();
            h.processElement(Committable.ofCheckpoint(3, withCompaction), 0);
            state = h.snapshot(3, 3);
        } // failure before the notification
        try (OneInputStreamOperatorTestHarness<Committable, Void> h = harness(pk, USER, CommitAction.append(), true)) {
            h.initializeState(state);
        }
        List<Snapshot> snapshots = snapshots(pk);
        assertThat(snapshots).hasSize(3);
        assertThat(snapshots.get(2).commitIdentifier()).isEqualTo(3);
        assertThat(snapshots.get(2).commitKind()).as("data only, in one snapshot").isEqualTo(CommitKind.APPEND);
        assertThat(SinkTables.dataFiles(pkDir).stream().map(p -> p.getFileName().toString()))
                .as("the dropped compaction's outputs are deleted").doesNotContainAnyElementsOf(outputs);
        assertThat(TestTables.readAll(pk).stream().map(r -> r.substring(2)).sorted().toList())
                .containsExactly("(1, 100, a)", "(2, 2, a)", "(3, 3, a)");
    }

    @Test
    void filesThatNoCheckpointHoldsAreDeletedOnFailure() throws Exception {
        List<CommitMessage> inCheckpoint = rows(0, 10);
        List<CommitMessage> afterCheckpoint = rows(10, 20);
        try (OneInputStreamOperatorTestHarness<Committable, Void> h = streaming()) {
            h.open();
            h.processElement(Committable.ofCheckpoint(1, inCheckpoint), 0);
            h.snapshot(1, 1);
            h.processElement(Committable.ofCheckpoint(2, afterCheckpoint), 0);
            assertThat(afterCheckpoint).allMatch(m -> existsQuietly(m));
        } // closed without completing: a failure
        assertThat(inCheckpoint).as("a restore may still commit these").allMatch(this::existsQuietly);
        assertThat(afterCheckpoint).as("never committable: the job replays them").noneMatch(this::existsQuietly);
        assertThat(snapshots(table)).isEmpty();
    }

    private boolean existsQuietly(CommitMessage m) {
        try {
            return exists(dir, m);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void endOfInputFilesGoToTheNextCheckpointNeverToMaxValue() throws Exception {
        try (OneInputStreamOperatorTestHarness<Committable, Void> h = streaming()) {
            h.open();
            h.processElement(Committable.ofCheckpoint(3, rows(0, 5)), 0);
            h.snapshot(3, 3);
            // One writer finished; the others go on.
            h.processElement(Committable.ofEndOfInput(rows(5, 10)), 0);
            h.processElement(Committable.ofCheckpoint(4, rows(10, 15)), 0);
            h.snapshot(4, 4);
            h.notifyOfCompletedCheckpoint(4);
            h.processElement(Committable.ofCheckpoint(5, rows(15, 20)), 0);
            h.snapshot(5, 5);
            h.notifyOfCompletedCheckpoint(5);
            h.endInput();
        }
        assertThat(identifiers(table)).containsExactly(3L, 4L, 5L);
        assertThat(TestTables.readAll(table)).hasSize(20);
    }

    @Test
    void withoutCheckpointingCommitsOnceAtEndOfInput() throws Exception {
        try (OneInputStreamOperatorTestHarness<Committable, Void> h = harness(USER, CommitAction.append(), false)) {
            h.open();
            h.processElement(Committable.ofEndOfInput(rows(0, 10)), 0);
            h.processElement(Committable.ofEndOfInput(rows(10, 12)), 0);
            assertThat(snapshots(table)).isEmpty();
            h.endInput();
        }
        assertThat(identifiers(table)).containsExactly(Snapshot.BATCH_COMMIT_IDENTIFIER);
        // A re-run of the committer (batch failover) with the same commit user does not commit twice.
        try (OneInputStreamOperatorTestHarness<Committable, Void> h = harness(USER, CommitAction.append(), false)) {
            h.open();
            h.processElement(Committable.ofEndOfInput(rows(0, 10)), 0);
            h.endInput();
        }
        assertThat(identifiers(table)).containsExactly(Snapshot.BATCH_COMMIT_IDENTIFIER);
        assertThat(TestTables.readAll(table)).hasSize(12);
    }

    @Test
    void committableOfAnAlreadyTakenCheckpointIsRefused() throws Exception {
        try (OneInputStreamOperatorTestHarness<Committable, Void> h = streaming()) {
            h.open();
            h.snapshot(5, 5);
            assertThatThrownBy(() -> h.processElement(Committable.ofCheckpoint(5, rows(0, 1)), 0))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("aligned exactly-once");
        }
    }

    @Test
    void committablesOfItsOwnTableAreCommittedAndOfAnotherTableRefused() throws Exception {
        try (OneInputStreamOperatorTestHarness<Committable, Void> h = streaming()) {
            h.open();
            h.processElement(Committable.ofCheckpoint(1, rows(0, 3)).forTable(table.fullName()), 0);
            h.snapshot(1, 1);
            h.notifyOfCompletedCheckpoint(1);
            assertThat(identifiers(table)).containsExactly(1L);

            Committable foreign = Committable.ofCheckpoint(2, rows(3, 5)).forTable("other_db.other_table");
            assertThatThrownBy(() -> h.processElement(foreign, 0))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("Cannot commit to table " + table.fullName())
                    .hasMessageContaining("table other_db.other_table")
                    .hasMessageContaining("committer of that table");
            h.snapshot(2, 2);
            h.notifyOfCompletedCheckpoint(2);
        }
        assertThat(identifiers(table)).containsExactly(1L);
        assertThat(TestTables.readAll(table)).hasSize(3);
    }

    /** Records its calls; replaces data like an overwrite. */
    static final class RecordingReplace implements CommitAction {
        static final List<String> CALLS = new CopyOnWriteArrayList<>();

        @Override
        public void commit(TableCommit commit, long identifier, List<CommitMessage> messages) {
            CALLS.add(identifier + ":" + messages.size());
        }

        @Override
        public boolean replacesData() {
            return true;
        }
    }

    @Test
    void replacingCommitRunsEvenWithoutRows() throws Exception {
        RecordingReplace.CALLS.clear();
        try (OneInputStreamOperatorTestHarness<Committable, Void> h = harness(USER, new RecordingReplace(), false)) {
            h.open();
            h.endInput();
        }
        assertThat(RecordingReplace.CALLS).containsExactly(Long.MAX_VALUE + ":0");
        // A plain append without rows makes no snapshot.
        try (OneInputStreamOperatorTestHarness<Committable, Void> h = harness(USER, CommitAction.append(), false)) {
            h.open();
            h.endInput();
        }
        assertThat(snapshots(table)).isEmpty();
    }

    /**
     * The job failed between checkpoint 2's APPEND and COMPACT snapshots: the restored committer finds
     * the checkpoint committed and deletes the files of its compaction, which no snapshot references.
     */
    @Test
    void aRestoredCheckpointWhoseCompactionWasLostLeavesNoCompactionFilesBehind() throws Exception {
        java.nio.file.Path fixedDir = tmp.resolve("fixed");
        FileStoreTable fixed = append(fixedDir, "bucket", "1", "bucket-key", "id", "compaction.min.file-num", "2");
        TestTables.write(fixed, List.of(storageRow(1, 1, "a")));
        List<CommitMessage> checkpoint2;
        try (TableWrite w = fixed.newWrite()) {
            w.write(storageRow(2, 2, "a"));
            checkpoint2 = w.prepareCommit(true);
        }
        assertThat(checkpoint2).hasSize(1);
        CommitMessage m = checkpoint2.get(0);
        assertThat(m.compactIncrement().compactAfter()).as("the two files of the bucket compacted").hasSize(1);
        String output = m.compactIncrement().compactAfter().get(0).fileName();

        OperatorSubtaskState state;
        try (OneInputStreamOperatorTestHarness<Committable, Void> h = harness(fixed, USER, CommitAction.append(), true)) {
            h.open();
            h.processElement(Committable.ofCheckpoint(2, checkpoint2), 0);
            state = h.snapshot(2, 2);
        }
        // Only the APPEND snapshot of checkpoint 2 landed before the failure.
        try (TableCommit commit = fixed.newStreamCommit(USER)) {
            commit.commit(2, List.of(new CommitMessage(m.partition(), m.bucket(), m.totalBuckets(),
                    m.dataIncrement(), dev.streamhouse.storage.commit.CompactIncrement.EMPTY)));
        }
        assertThat(SinkTables.dataFiles(fixedDir)).anyMatch(p -> p.getFileName().toString().equals(output));

        try (OneInputStreamOperatorTestHarness<Committable, Void> h = harness(fixed, USER, CommitAction.append(), true)) {
            h.initializeState(state);
            h.open();
        }
        assertThat(identifiers(fixed)).as("nothing committed again").containsExactly(Long.MAX_VALUE, 2L);
        assertThat(SinkTables.dataFiles(fixedDir)).noneMatch(p -> p.getFileName().toString().equals(output));
        assertThat(TestTables.readAll(fixed)).hasSize(2);
    }
}
