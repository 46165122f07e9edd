package dev.streamhouse.storage.table.sink;

import dev.streamhouse.storage.commit.CommitMessage;
import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.schema.Schema;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.testutils.GatedFileIO;
import dev.streamhouse.storage.testutils.TestTables;
import dev.streamhouse.storage.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A streaming writer's commit ({@code prepareCommit(false)}, what a checkpoint barrier waits for)
 * never waits for a primary-key bucket's compaction, not even above {@code num-sorted-run.stop-trigger}:
 * the bucket's next write waits instead (back pressure), and the compaction's result travels with a
 * later commit. Compactions are held at a gate (their reads of data files) to make "running" certain.
 * {@code commit.force-compact} asks every commit to wait, and it does.
 */
class CompactionNeverHoldsCommitTest {
    @TempDir
    java.nio.file.Path tmp;

    private final GatedFileIO io = new GatedFileIO();

    private FileStoreTable create(String... options) throws Exception {
        Schema.Builder b = Schema.newBuilder()
                .column("id", DataTypes.INT().notNull())
                .column("v", DataTypes.STRING())
                .primaryKey("id")
                .option("bucket", "1")
                .option("num-sorted-run.compaction-trigger", "2")
                .option("num-sorted-run.stop-trigger", "2");
        for (int i = 0; i < options.length; i += 2) {
            b.option(options[i], options[i + 1]);
        }
        return TestTables.create(io, new Path(tmp.resolve("t").toString()), b.build());
    }

    private static GenericRow row(int id) {
        return GenericRow.of(id, BinaryString.fromString("v" + id));
    }

    @Test
    @Timeout(120)
    void checkpointsPassARunningCompactionAndTheNextWriteWaitsAboveTheStopTrigger() throws Exception {
        FileStoreTable table = create();
        TableCommit commit = table.newStreamCommit("u");
        try (TableWrite write = table.newWrite()) {
            io.closeGate();
            write.write(row(1));
            commit.commit(1, write.prepareCommit(false)); // one sorted run
            write.write(row(2));
            List<CommitMessage> second = write.prepareCommit(false); // two runs: compaction starts
            assertThat(compacted(second)).isEmpty();
            commit.commit(2, second);
            awaitCompactionAtGate();

            // Three sorted runs, above the stop trigger of 2, while the compaction is held: the commit
            // hands out the new level-0 file without waiting.
            write.write(row(3));
            List<CommitMessage> third = write.prepareCommit(false); // blocking here would time the test out
            assertThat(third).flatExtracting(CommitMessage::newFiles).hasSize(1);
            assertThat(compacted(third)).isEmpty();
            commit.commit(3, third);

            // The next write waits for the compaction instead.
            Thread fourth = new Thread(() -> write(write, 4), "fourth-write");
            fourth.start();
            awaitBlockedOrEnded(fourth);
            assertThat(fourth.isAlive()).as("a write to a bucket above the stop trigger waits for compaction").isTrue();
            io.openGate();
            fourth.join();

            List<CommitMessage> fifth = write.prepareCommit(false);
            assertThat(compacted(fifth)).as("the held compaction travels with a later commit").isNotEmpty();
            commit.commit(4, fifth);
            commit.commit(5, write.prepareCommit());
        }
        assertThat(TestTables.readAll(table)).containsExactly("+I(1, v1)", "+I(2, v2)", "+I(3, v3)", "+I(4, v4)");
    }

    @Test
    @Timeout(120)
    void commitForceCompactMakesEveryCommitWait() throws Exception {
        FileStoreTable table = create("commit.force-compact", "true");
        TableCommit commit = table.newStreamCommit("u");
        try (TableWrite write = table.newWrite()) {
            io.closeGate();
            write.write(row(1));
            commit.commit(1, write.prepareCommit(false));
            write.write(row(2));
            AtomicReference<List<CommitMessage>> prepared = new AtomicReference<>();
            Thread second = new Thread(() -> prepared.set(prepare(write, false)), "second-commit");
            second.start();
            awaitCompactionAtGate();
            awaitBlockedOrEnded(second);
            assertThat(second.isAlive()).as("commit.force-compact: the commit waits for the compaction").isTrue();
            io.openGate();
            second.join();
            List<CommitMessage> messages = prepared.get();
            assertThat(messages).flatExtracting(CommitMessage::newFiles).hasSize(1);
            assertThat(compacted(messages)).isNotEmpty();
            commit.commit(2, messages);
        }
        assertThat(TestTables.readAll(table)).containsExactly("+I(1, v1)", "+I(2, v2)");
    }

    /**
     * Waits until {@code thread} is parked (the only place it can park with the gate closed is the wait
     * for the held compaction) or has ended; the caller then tells which.
     */
    private static void awaitBlockedOrEnded(Thread thread) throws InterruptedException {
        while (thread.isAlive() && thread.getState() != Thread.State.WAITING
                && thread.getState() != Thread.State.TIMED_WAITING) {
            Thread.sleep(5);
        }
    }

    private void awaitCompactionAtGate() throws InterruptedException {
        while (io.dataFileOpens() == 0) {
            Thread.sleep(10);
        }
    }

    private static List<?> compacted(List<CommitMessage> messages) {
        return messages.stream().flatMap(m -> m.compactIncrement().compactAfter().stream()).toList();
    }

    private static List<CommitMessage> prepare(TableWrite write, boolean waitCompaction) {
        try {
            return write.prepareCommit(waitCompaction);
        } catch (Exception e) {
            throw new RuntimeException(e);
        }
    }

    private static void write(TableWrite write, int id) {
        try {
            write.write(row(id));
        } catch (Exception e) {
            throw new RuntimeException(e);
        }
    }
}
