package dev.streamhouse.storage.table;

import dev.streamhouse.storage.commit.CommitMessage;
import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.table.sink.TableCommit;
import dev.streamhouse.storage.table.sink.TableWrite;
import dev.streamhouse.storage.testutils.FailingFileIO;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.List;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A streaming writer's checkpoint that carries a compaction of a fixed bucket (its APPEND and COMPACT
 * snapshots) fails at any single file-system call, before or after performing it: the table shows
 * the rows before or after it, never part of them; and the restarted job, doing what the Flink sink's
 * committer does on restore, ends with every row exactly once, each bucket in write order, and no
 * data file that no snapshot references.
 */
class AppendCompactionCommitFailureTest {
    private static final String USER = "job";

    @TempDir
    java.nio.file.Path tmp;

    private final FailingFileIO io = FailingFileIO.wrap(LocalFileIO.INSTANCE);

    private int attempt;
    private java.nio.file.Path dir;
    private TableWrite write;
    private List<CommitMessage> messages;

    @AfterEach
    void release() {
        io.release();
    }

    private FileStoreTable load(boolean failing) {
        return FileStoreTable.load(failing ? io : io.delegate(), new Path(dir.toString()), "default.test");
    }

    /**
     * Checkpoints 1 and 2 commit a file each to the one bucket of partition a (even values only);
     * checkpoint 3's file completes a compaction of three.
     */
    private void scenario() throws Exception {
        dir = tmp.resolve("t" + attempt++);
        write = null;
        messages = null;
        FileStoreTable setup = AppendTables.create(io.delegate(), dir, "1", "compaction.min.file-num", "3");
        try (TableWrite w = setup.newWrite(); TableCommit c = setup.newStreamCommit(USER)) {
            for (long checkpoint = 1; checkpoint <= 2; checkpoint++) {
                for (long v = (checkpoint - 1) * 10; v < checkpoint * 10; v += 2) {
                    w.write(AppendTables.row(v));
                }
                c.commit(checkpoint, w.prepareCommit(true));
            }
        }

        FileStoreTable table = load(true);
        write = table.newWrite();
        for (long v = 20; v < 30; v += 2) {
            write.write(AppendTables.row(v));
        }
        messages = write.prepareCommit(true);
        assertThat(messages).allMatch(m -> !m.compactIncrement().isEmpty());
        try (TableCommit commit = table.newStreamCommit(USER)) {
            commit.commit(3, messages);
        }
        write.close();
    }

    private void checkAndFinish(int failedCall, Throwable thrown) throws Exception {
        FileStoreTable plain = load(false);
        List<Long> visible = AppendTables.values(plain);
        List<Long> before = LongStream.range(0, 10).map(i -> 2 * i).boxed().toList();
        List<Long> after = LongStream.range(0, 15).map(i -> 2 * i).boxed().toList();
        assertThat(visible).as("rows after call %s failed (%s)", failedCall, thrown)
                .satisfiesAnyOf(v -> assertThat(v).isEqualTo(before), v -> assertThat(v).isEqualTo(after));

        // The job fails: its writer goes away, and the restarted committer finishes checkpoint 3.
        if (write != null) {
            write.close();
        }
        if (messages == null) {
            // Checkpoint 3 never reached the committer: the restarted job writes its rows again.
            try (TableWrite w = plain.newWrite(); TableCommit c = plain.newStreamCommit(USER)) {
                for (long v = 20; v < 30; v += 2) {
                    w.write(AppendTables.row(v));
                }
                c.commit(3, w.prepareCommit(true));
            }
        } else {
            try (TableCommit restored = plain.newStreamCommit(USER)) {
                if (restored.filterCommitted(List.of(3L)).isEmpty()) {
                    restored.abortCompactionsIfNotCommitted(3, messages);
                } else {
                    restored.commit(3, AppendWriterCompactionTest.dataOnly(messages));
                    restored.abort(AppendWriterCompactionTest.compactionsOnly(messages));
                }
            }
        }
        FileStoreTable finished = load(false);
        assertThat(AppendTables.values(finished)).as("rows after finishing the work interrupted at call %s (%s)",
                failedCall, thrown).isEqualTo(after);
        AppendTables.assertBucketsInOrder(finished);
        assertThat(AppendTables.strayDataFiles(finished, dir)).as("stray files after call %s failed (%s)",
                failedCall, thrown).isEmpty();
    }

    @Test
    void aFailureBeforeAnyCallLosesAndRepeatsNothing() throws Exception {
        int points = io.failEachCallInTurn(this::scenario, this::checkAndFinish);
        assertThat(points).isGreaterThan(20);
    }

    @Test
    void aFailureAfterAnyCallLosesAndRepeatsNothing() throws Exception {
        int points = io.failEachCallInTurnAfterSuccess(this::scenario, this::checkAndFinish);
        assertThat(points).isGreaterThan(20);
    }
}
