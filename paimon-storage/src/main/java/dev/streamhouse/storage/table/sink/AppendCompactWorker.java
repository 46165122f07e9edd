package dev.streamhouse.storage.table.sink;

import dev.streamhouse.storage.commit.CommitMessage;
import dev.streamhouse.storage.commit.CompactIncrement;
import dev.streamhouse.storage.commit.DataIncrement;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.table.Table;

import java.io.IOException;
import java.util.List;

/**
 * Runs the {@link AppendCompactTask}s of an {@link AppendCompactCoordinator}: rewrites a task's files
 * together into new files of its partition ({@code _FILE_SOURCE} COMPACT, rolling at
 * {@code target-file-size}), and returns the rewrite as a commit message (compaction only) for the
 * job's committer. Nothing is visible before that commit; a failed rewrite deletes what it wrote.
 *
 * <p>Thread-safe for tasks of different files: each {@link #compact} is independent.
 */
public final class AppendCompactWorker {
    private final FileStoreTable table;

    private AppendCompactWorker(FileStoreTable table) {
        this.table = table;
    }

    /**
     * A worker of {@code table}.
     *
     * @throws UnsupportedOperationException if it is not stored in the Paimon format
     */
    public static AppendCompactWorker of(Table table) {
        return new AppendCompactWorker(CompactionBuckets.fileStoreTable(table, "compact"));
    }

    /**
     * Rewrites the task's files.
     *
     * @throws IOException if a file cannot be read or written (nothing is left behind)
     */
    public CommitMessage compact(AppendCompactTask task) throws IOException {
        try (AppendTableWrite write = (AppendTableWrite) table.newOverwriteWrite()) {
            return new CommitMessage(task.partition(), 0, -1, DataIncrement.EMPTY,
                    new CompactIncrement(task.files(), write.rewrite(task.partition(), 0, task.files()), List.of()));
        }
    }

    /** Deletes the files the compactions of {@code messages} wrote; only for messages that will never be committed. */
    public void discard(List<CommitMessage> messages) {
        try (BatchTableCommit commit = table.newBatchCommit()) {
            commit.abort(messages);
        }
    }
}
