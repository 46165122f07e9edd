package dev.streamhouse.flink.sink.committer;

import dev.streamhouse.storage.serialization.CommitMessageSerializer;
import dev.streamhouse.storage.commit.CommitMessage;
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
 * Serializes {@link CommitterState} into the committer's operator state; the commit messages in it
 * are storage's binary form ({@link CommitMessageSerializer}). Big-endian, ascending checkpoint ids.
 *
 * <p>Version 1:
 * <pre>
 *   int length m, m bytes: the commit user in UTF-8
 *   int n, then n × ( long checkpoint id,
 *                     int k, k commit messages in CommitMessageSerializer version 1 without its version )
 * </pre>
 * Version 2 (current) lets the message format move on by itself:
 * <pre>
 *   int length m, m bytes: the commit user in UTF-8
 *   int n, then n × ( long checkpoint id,
 *                     the messages as CommitMessageSerializer.serializeList writes them (its version first) )
 * </pre>
 * Versions only grow; every version written once stays readable (jobs restore old checkpoints).
 * Thread-safe (no state).
 */
public final class CommitterStateSerializer implements SimpleVersionedSerializer<CommitterState> {
    public static final CommitterStateSerializer INSTANCE = new CommitterStateSerializer();

    static final int VERSION_1 = 1;
    static final int VERSION_2 = 2;
    private static final int CURRENT_VERSION = VERSION_2;

    private static final CommitMessageSerializer MESSAGES = CommitMessageSerializer.INSTANCE;
    /** The message version version 1 embedded without writing it (the layout it had is that version). */
    private static final int VERSION_1_MESSAGE_VERSION = 1;

    @Override
    public int getVersion() {
        return CURRENT_VERSION;
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
            MESSAGES.serializeList(e.getValue(), out);
        }
        out.flush();
        return bytes.toByteArray();
    }

    @Override
    public CommitterState deserialize(int version, byte[] serialized) throws IOException {
        if (version != VERSION_1 && version != VERSION_2) {
            throw new IOException("Cannot restore the committer state of serializer version " + version
                    + ": this version of the sink reads versions " + VERSION_1 + " to " + CURRENT_VERSION);
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
            pending.put(id, version == VERSION_1
                    ? MESSAGES.deserializeListBody(VERSION_1_MESSAGE_VERSION, in)
                    : MESSAGES.deserializeList(in));
        }
        if (in.available() > 0) {
            throw new IOException("Corrupt committer state: " + in.available() + " trailing bytes");
        }
        return new CommitterState(new String(user, StandardCharsets.UTF_8), pending);
    }
}
