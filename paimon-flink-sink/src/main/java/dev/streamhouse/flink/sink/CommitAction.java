package dev.streamhouse.flink.sink;

import dev.streamhouse.storage.commit.CommitMessage;
import dev.streamhouse.storage.table.sink.TableCommit;

import java.io.Serializable;
import java.util.List;

/**
 * How the committer turns the messages of one commit identifier into snapshots: a plain
 * {@link #append() append}, or (supplied by the caller) an overwrite.
 *
 * <p>Contract: {@link #commit} is called on the committer task, once per identifier in increasing
 * order, under the sink's stable commit user; after a restart only identifiers that
 * {@link TableCommit#filterCommitted} reports as missing are committed again. It must record the
 * identifier in the snapshot(s) it creates (every {@link TableCommit} method does) and let
 * exceptions propagate (the job then fails and recovers). Implementations are serialized with the
 * job graph.
 */
public interface CommitAction extends Serializable {

    /** Commits {@code messages} as the snapshot(s) of {@code identifier}. */
    void commit(TableCommit commit, long identifier, List<CommitMessage> messages);

    /**
     * Commits {@code messages} as the snapshot(s) of {@code identifier}, recording {@code watermark}
     * (null for none) in the snapshot where the commit kind has one; by default the watermark is
     * dropped.
     */
    default void commit(TableCommit commit, long identifier, Long watermark, List<CommitMessage> messages) {
        commit(commit, identifier, messages);
    }

    /**
     * Whether this commit replaces data rather than adding to it (INSERT OVERWRITE, TRUNCATE-like
     * purges). Then writers start every partition empty instead of continuing the latest snapshot,
     * an identifier without messages is still committed (an overwrite with no rows still removes
     * rows), and the sink refuses to run in a streaming job.
     */
    default boolean replacesData() {
        return false;
    }

    /** Adds the messages' files: {@link TableCommit#commit(long, List)}. */
    static CommitAction append() {
        return Append.INSTANCE;
    }

    /** The plain commit that adds files; one instance so that it survives serialization as itself. */
    enum Append implements CommitAction {
        INSTANCE;

        @Override
        public void commit(TableCommit commit, long identifier, List<CommitMessage> messages) {
            commit.commit(identifier, messages);
        }

        @Override
        public void commit(TableCommit commit, long identifier, Long watermark, List<CommitMessage> messages) {
            commit.commit(identifier, watermark, java.util.Map.of(), messages);
        }
    }
}
