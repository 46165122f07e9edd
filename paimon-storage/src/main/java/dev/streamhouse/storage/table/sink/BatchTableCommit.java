package dev.streamhouse.storage.table.sink;

import dev.streamhouse.storage.commit.CommitMessage;
import dev.streamhouse.storage.snapshot.Snapshot;

import java.util.List;
import java.util.Map;

/**
 * The commit of a batch job: one logical commit with identifier {@code Long.MAX_VALUE} under a fresh
 * commit user, either {@link #commit(List)} or one of the OVERWRITE commits (see {@link TableCommit}).
 * Calling the same method again after a failure is safe: it checks whether the earlier attempt landed
 * and never commits twice.
 */
public final class BatchTableCommit implements AutoCloseable {
    private final TableCommit commit;
    private boolean committed;

    public BatchTableCommit(TableCommit commit) {
        this.commit = commit;
    }

    public void commit(List<CommitMessage> messages) {
        checkNotCommitted();
        commit.commit(Snapshot.BATCH_COMMIT_IDENTIFIER, messages);
        committed = true;
    }

    /** INSERT OVERWRITE with a static partition spec; see {@link TableCommit#overwrite}. */
    public void overwrite(Map<String, String> staticPartition, List<CommitMessage> messages) {
        checkNotCommitted();
        commit.overwrite(Snapshot.BATCH_COMMIT_IDENTIFIER, staticPartition, messages);
        committed = true;
    }

    /** INSERT OVERWRITE of the written partitions; see {@link TableCommit#overwriteDynamicPartitions}. */
    public void overwriteDynamicPartitions(List<CommitMessage> messages) {
        checkNotCommitted();
        commit.overwriteDynamicPartitions(Snapshot.BATCH_COMMIT_IDENTIFIER, messages);
        committed = true;
    }

    /** TRUNCATE TABLE; see {@link TableCommit#truncateTable}. */
    public void truncateTable() {
        checkNotCommitted();
        commit.truncateTable(Snapshot.BATCH_COMMIT_IDENTIFIER);
        committed = true;
    }

    /** ALTER TABLE DROP PARTITION; see {@link TableCommit#dropPartitions}. */
    public void dropPartitions(List<Map<String, String>> partitions) {
        checkNotCommitted();
        commit.dropPartitions(Snapshot.BATCH_COMMIT_IDENTIFIER, partitions);
        committed = true;
    }

    private void checkNotCommitted() {
        if (committed) {
            throw new IllegalStateException("Cannot commit twice with one BatchTableCommit: it already committed");
        }
    }

    public void abort(List<CommitMessage> messages) {
        commit.abort(messages);
    }

    @Override
    public void close() {
        commit.close();
    }
}
