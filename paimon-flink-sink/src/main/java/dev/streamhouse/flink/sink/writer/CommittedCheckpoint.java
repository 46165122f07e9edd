package dev.streamhouse.flink.sink.writer;

import dev.streamhouse.storage.table.Table;
import dev.streamhouse.storage.table.sink.TableCommit;

import java.time.Duration;
import java.util.List;

/**
 * A restored writer's wait for the committer: before it continues a table's buckets, the checkpoint
 * to which it last handed new data files must be committed by the job's commit user (the restored
 * committer commits it while initializing), or it would reuse sequence numbers.
 */
public final class CommittedCheckpoint {
    /** How long a restored writer waits for the committer to commit restored checkpoints. */
    public static final Duration RESTORE_WAIT = Duration.ofMinutes(10);
    private static final long POLL_MILLIS = 50;

    private CommittedCheckpoint() {}

    /**
     * Returns once {@code table} shows {@code checkpointId} committed by {@code commitUser}.
     *
     * @throws IllegalStateException naming table, checkpoint and commit user after {@link #RESTORE_WAIT}
     */
    public static void await(Table table, String commitUser, long checkpointId) throws InterruptedException {
        long deadline = System.nanoTime() + RESTORE_WAIT.toNanos();
        try (TableCommit commit = table.newStreamCommit(commitUser)) {
            while (!commit.filterCommitted(List.of(checkpointId)).isEmpty()) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("Cannot restore a writer of table " + table.fullName()
                            + ": checkpoint " + checkpointId + " of commit user " + commitUser + " is still not "
                            + "committed after " + RESTORE_WAIT.toMinutes() + " minutes, and the writer must not "
                            + "continue its buckets without it; check the committer's log for commit failures");
                }
                Thread.sleep(POLL_MILLIS);
            }
        }
    }
}
