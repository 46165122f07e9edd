package dev.streamhouse.storage.table.sink;

import dev.streamhouse.storage.snapshot.Snapshot;

import java.util.List;

/**
 * The commit of a batch job: one logical commit with identifier {@code Long.MAX_VALUE} under a fresh
 * commit user. Calling {@link #commit(List)} again after a failure is safe: it checks whether the
 * earlier attempt landed and never commits twice.
 */
public final class BatchTableCommit implements AutoCloseable {
    private final TableCommit commit;
    private boolean committed;

    public BatchTableCommit(TableCommit commit) {
        this.commit = commit;
    }

    public void commit(List<CommitMessage> messages) {
        if (committed) {
            throw new IllegalStateException("Cannot commit twice with one BatchTableCommit: it already committed");
        }
        commit.commit(Snapshot.BATCH_COMMIT_IDENTIFIER, messages);
        committed = true;
    }

    public void abort(List<CommitMessage> messages) {
        commit.abort(messages);
    }

    @Override
    public void close() {
        commit.close();
    }
}
