package dev.streamhouse.flink.sink.writer;

import org.apache.flink.core.io.SimpleVersionedSerialization;

import java.io.IOException;
import java.util.Objects;

/**
 * What one writer subtask keeps in a checkpoint: the job's commit user and the last checkpoint to
 * which it handed new data files ({@code -1} if none).
 */
public record WriterState(String commitUser, long lastHandedOut) {
    public WriterState {
        Objects.requireNonNull(commitUser, "commitUser");
    }

    /**
     * The state a restored subtask continues from: the commit user of the restored entries
     * ({@code initialCommitUser} if there are none) and the latest of their checkpoints.
     */
    public static WriterState restore(Iterable<byte[]> entries, String initialCommitUser) throws IOException {
        String user = initialCommitUser;
        long last = -1;
        for (byte[] bytes : entries) {
            WriterState restored = SimpleVersionedSerialization.readVersionAndDeSerialize(
                    WriterStateSerializer.INSTANCE, bytes);
            user = restored.commitUser();
            last = Math.max(last, restored.lastHandedOut());
        }
        return new WriterState(user, last);
    }

    /** This state as one checkpointed entry, with its serializer's version. */
    public byte[] toBytes() throws IOException {
        return SimpleVersionedSerialization.writeVersionAndSerialize(WriterStateSerializer.INSTANCE, this);
    }
}
