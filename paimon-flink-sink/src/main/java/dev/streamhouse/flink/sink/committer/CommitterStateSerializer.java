package dev.streamhouse.flink.sink.committer;

import dev.streamhouse.flink.sink.committable.CommitMessageCodec;
import dev.streamhouse.storage.table.sink.CommitMessage;
import org.apache.flink.core.io.SimpleVersionedSerializer;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Serializes {@link CommitterState} into the committer's operator state. Version 1:
 * {@code int(len) UTF-8(commitUser) int(n)} then n × {@code long(checkpointId)} messages in
 * {@link CommitMessageCodec} layout 1, ascending ids. Later versions must keep reading version 1:
 * jobs restore old checkpoints.
 */
public final class CommitterStateSerializer implements SimpleVersionedSerializer<CommitterState> {
    public static final CommitterStateSerializer INSTANCE = new CommitterStateSerializer();

    private static final int VERSION = 1;

    @Override
    public int getVersion() {
        return VERSION;
    }

    @Override
    public byte[] serialize(CommitterState state) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
        DataOutputStream out = new DataOutputStream(bytes);
        byte[] user = state.commitUser().getBytes(StandardCharsets.UTF_8);
        out.writeInt(user.length);
        out.write(user);
        out.writeInt(state.pending().size());
        for (Map.Entry<Long, List<CommitMessage>> e : state.pending().entrySet()) {
            out.writeLong(e.getKey());
            CommitMessageCodec.writeMessages(e.getValue(), out);
        }
        out.flush();
        return bytes.toByteArray();
    }

    @Override
    public CommitterState deserialize(int version, byte[] serialized) throws IOException {
        if (version != VERSION) {
            throw new IOException("Cannot restore the committer state of serializer version " + version
                    + ": this version of the sink reads version " + VERSION + " only");
        }
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(serialized));
        int userLength = in.readInt();
        if (userLength < 0 || userLength > serialized.length) {
            throw new IOException("Corrupt committer state: commit user length " + userLength);
        }
        byte[] user = new byte[userLength];
        in.readFully(user);
        int n = in.readInt();
        if (n < 0) {
            throw new IOException("Corrupt committer state: " + n + " pending checkpoints");
        }
        TreeMap<Long, List<CommitMessage>> pending = new TreeMap<>();
        for (int i = 0; i < n; i++) {
            long id = in.readLong();
            pending.put(id, CommitMessageCodec.readMessages(in));
        }
        if (in.available() > 0) {
            throw new IOException("Corrupt committer state: " + in.available() + " trailing bytes");
        }
        return new CommitterState(new String(user, StandardCharsets.UTF_8), pending);
    }
}
