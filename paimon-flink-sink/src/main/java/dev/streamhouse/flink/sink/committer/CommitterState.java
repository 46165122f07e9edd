package dev.streamhouse.flink.sink.committer;

import dev.streamhouse.storage.commit.CommitMessage;

import java.util.Collections;
import java.util.List;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What the committer keeps in a checkpoint: the commit user (stable for the life of the job, even
 * when the job is rebuilt from a savepoint) and the messages of every checkpoint that is not known
 * to be committed yet, by checkpoint id.
 */
public record CommitterState(String commitUser, NavigableMap<Long, List<CommitMessage>> pending) {

    public CommitterState {
        Objects.requireNonNull(commitUser, "commitUser");
        TreeMap<Long, List<CommitMessage>> copy = new TreeMap<>();
        pending.forEach((id, messages) -> copy.put(id, List.copyOf(messages)));
        pending = Collections.unmodifiableNavigableMap(copy);
    }
}
