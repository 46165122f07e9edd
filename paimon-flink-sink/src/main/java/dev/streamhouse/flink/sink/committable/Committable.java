package dev.streamhouse.flink.sink.committable;

import dev.streamhouse.storage.commit.CommitMessage;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What one writer subtask hands to the committer: the commit messages of the files it finished
 * either just before the barrier of a checkpoint ({@link #ofCheckpoint}) or at the end of its
 * input ({@link #ofEndOfInput}), and optionally the table they belong to ({@link #forTable}).
 *
 * <p>The committer does not commit by the checkpoint id written here: it files each committable
 * under the first checkpoint it snapshots after receiving it, which for aligned exactly-once
 * checkpoints is the same id, and for end-of-input committables of a streaming job is the writer's
 * final checkpoint. The id is kept for diagnostics and as a consistency check.
 *
 * <p>The table is its storage full name ({@code Table.fullName()}). Today a committer serves one
 * table and refuses committables that name another; a sink writing many tables through one committer
 * will group by it. Committables without a table (written before tables were recorded) go to the
 * committer that receives them. Immutable.
 */
public final class Committable {
    /** Encoded form of "end of input"; also Paimon's identifier of a batch commit. */
    static final long END_OF_INPUT = Long.MAX_VALUE;

    private final long checkpointId;
    private final String table;
    private final List<CommitMessage> messages;

    private Committable(long checkpointId, String table, List<CommitMessage> messages) {
        this.checkpointId = checkpointId;
        this.table = table;
        this.messages = List.copyOf(messages);
    }

    /** Files finished before the barrier of checkpoint {@code checkpointId}. */
    public static Committable ofCheckpoint(long checkpointId, List<CommitMessage> messages) {
        if (checkpointId < 0 || checkpointId == END_OF_INPUT) {
            throw new IllegalArgumentException("Invalid checkpoint id " + checkpointId);
        }
        return new Committable(checkpointId, null, messages);
    }

    /** Files finished when the writer's input ended. */
    public static Committable ofEndOfInput(List<CommitMessage> messages) {
        return new Committable(END_OF_INPUT, null, messages);
    }

    /** These files as files of the table with full name {@code tableName}. */
    public Committable forTable(String tableName) {
        Objects.requireNonNull(tableName, "tableName");
        if (tableName.isBlank()) {
            throw new IllegalArgumentException("Cannot name the table of a committable: blank table name");
        }
        return new Committable(checkpointId, tableName, messages);
    }

    static Committable decode(long checkpointId, String table, List<CommitMessage> messages) {
        return new Committable(checkpointId, table, messages);
    }

    public boolean isEndOfInput() {
        return checkpointId == END_OF_INPUT;
    }

    /** The checkpoint whose barrier followed these files; only for {@code !isEndOfInput()}. */
    public long checkpointId() {
        if (isEndOfInput()) {
            throw new IllegalStateException("An end-of-input committable has no checkpoint id");
        }
        return checkpointId;
    }

    long encodedCheckpointId() {
        return checkpointId;
    }

    /** The full name of the table the files belong to; empty if the writer did not say. */
    public Optional<String> table() {
        return Optional.ofNullable(table);
    }

    public List<CommitMessage> messages() {
        return messages;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Committable)) {
            return false;
        }
        Committable that = (Committable) o;
        return checkpointId == that.checkpointId && Objects.equals(table, that.table)
                && messages.equals(that.messages);
    }

    @Override
    public int hashCode() {
        return Objects.hash(checkpointId, table, messages);
    }

    @Override
    public String toString() {
        return "Committable{" + (table == null ? "" : "table " + table + ", ")
                + (isEndOfInput() ? "end of input" : "checkpoint " + checkpointId) + ", " + messages.size()
                + " messages}";
    }
}
