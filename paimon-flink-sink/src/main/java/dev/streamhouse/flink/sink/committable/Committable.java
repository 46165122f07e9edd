package dev.streamhouse.flink.sink.committable;

import dev.streamhouse.storage.table.sink.CommitMessage;

import java.util.List;
import java.util.Objects;

/**
 * What one writer subtask hands to the committer: the commit messages of the files it finished
 * either just before the barrier of a checkpoint ({@link #ofCheckpoint}) or at the end of its
 * input ({@link #ofEndOfInput}).
 *
 * <p>The committer does not commit by the checkpoint id written here: it files each committable
 * under the first checkpoint it snapshots after receiving it, which for aligned exactly-once
 * checkpoints is the same id, and for end-of-input committables of a streaming job is the writer's
 * final checkpoint. The id is kept for diagnostics and as a consistency check.
 */
public final class Committable {
    /** Encoded form of "end of input"; also Paimon's identifier of a batch commit. */
    static final long END_OF_INPUT = Long.MAX_VALUE;

    private final long checkpointId;
    private final List<CommitMessage> messages;

    private Committable(long checkpointId, List<CommitMessage> messages) {
        this.checkpointId = checkpointId;
        this.messages = List.copyOf(messages);
    }

    /** Files finished before the barrier of checkpoint {@code checkpointId}. */
    public static Committable ofCheckpoint(long checkpointId, List<CommitMessage> messages) {
        if (checkpointId < 0 || checkpointId == END_OF_INPUT) {
            throw new IllegalArgumentException("Invalid checkpoint id " + checkpointId);
        }
        return new Committable(checkpointId, messages);
    }

    /** Files finished when the writer's input ended. */
    public static Committable ofEndOfInput(List<CommitMessage> messages) {
        return new Committable(END_OF_INPUT, messages);
    }

    static Committable decode(long checkpointId, List<CommitMessage> messages) {
        return new Committable(checkpointId, messages);
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

    public List<CommitMessage> messages() {
        return messages;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Committable)) {
            return false;
        }
        Committable that = (Committable) o;
        return checkpointId == that.checkpointId && messages.equals(that.messages);
    }

    @Override
    public int hashCode() {
        return Objects.hash(checkpointId, messages);
    }

    @Override
    public String toString() {
        return "Committable{" + (isEndOfInput() ? "end of input" : "checkpoint " + checkpointId) + ", "
                + messages.size() + " messages}";
    }
}
