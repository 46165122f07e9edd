package dev.streamhouse.flink.sink.committable;

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

/**
 * Serializes {@link Committable}s on their way from writers to the committer; the commit messages
 * in them are storage's binary form ({@link CommitMessageSerializer}). Big-endian.
 *
 * <p>Version 1:
 * <pre>
 *   long   checkpoint id (Long.MAX_VALUE = end of input)
 *   int n, then n commit messages in CommitMessageSerializer version 1 without its version number
 * </pre>
 * Version 2 (current) adds the table and lets the message format move on by itself:
 * <pre>
 *   long   checkpoint id (Long.MAX_VALUE = end of input)
 *   byte   1 if a table name follows, 0 if the committable names none
 *   int length m, m bytes: the table's full name in UTF-8 (only if the byte is 1)
 *   the messages as CommitMessageSerializer.serializeList writes them (its version first)
 * </pre>
 * A version 1 committable reads as naming no table. Versions only grow; every version written once
 * stays readable. Thread-safe (no state).
 */
public final class CommittableSerializer implements SimpleVersionedSerializer<Committable> {
    public static final CommittableSerializer INSTANCE = new CommittableSerializer();

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
    public byte[] serialize(Committable committable) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeLong(committable.encodedCheckpointId());
        String table = committable.table().orElse(null);
        out.writeBoolean(table != null);
        if (table != null) {
            byte[] name = table.getBytes(StandardCharsets.UTF_8);
            out.writeInt(name.length);
            out.write(name);
        }
        MESSAGES.serializeList(committable.messages(), out);
        out.flush();
        return bytes.toByteArray();
    }

    @Override
    public Committable deserialize(int version, byte[] serialized) throws IOException {
        if (version != VERSION_1 && version != VERSION_2) {
            throw new IOException("Cannot read a committable of serializer version " + version
                    + ": this version of the sink reads versions " + VERSION_1 + " to " + CURRENT_VERSION);
        }
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(serialized));
        long checkpointId = in.readLong();
        String table = null;
        List<CommitMessage> messages;
        if (version == VERSION_1) {
            messages = MESSAGES.deserializeListBody(VERSION_1_MESSAGE_VERSION, in);
        } else {
            if (in.readBoolean()) {
                int length = in.readInt();
                if (length < 0 || length > in.available()) {
                    throw new IOException("Corrupt committable: table name length " + length);
                }
                byte[] name = new byte[length];
                in.readFully(name);
                table = new String(name, StandardCharsets.UTF_8);
            }
            messages = MESSAGES.deserializeList(in);
        }
        if (in.available() > 0) {
            throw new IOException("Corrupt committable: " + in.available() + " trailing bytes");
        }
        return Committable.decode(checkpointId, table, messages);
    }
}
