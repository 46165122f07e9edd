package dev.streamhouse.flink.sink.writer;

import java.util.Objects;

/**
 * What one writer subtask keeps in a checkpoint: the job's commit user and the last checkpoint to
 * which it handed new data files ({@code -1} if none).
 */
public record WriterState(String commitUser, long lastHandedOut) {
    public WriterState {
        Objects.requireNonNull(commitUser, "commitUser");
    }
}
