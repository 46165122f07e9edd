package dev.streamhouse.flink.sink.writer;

import org.apache.flink.core.io.SimpleVersionedSerializer;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Serializes {@link WriterState}. Version 1: {@code int(len) UTF-8(commitUser) long(lastHandedOut)}.
 * Later versions must keep reading version 1.
 */
public final class WriterStateSerializer implements SimpleVersionedSerializer<WriterState> {
    public static final WriterStateSerializer INSTANCE = new WriterStateSerializer();

    private static final int VERSION = 1;

    @Override
    public int getVersion() {
        return VERSION;
    }

    @Override
    public byte[] serialize(WriterState state) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
        DataOutputStream out = new DataOutputStream(bytes);
        byte[] user = state.commitUser().getBytes(StandardCharsets.UTF_8);
        out.writeInt(user.length);
        out.write(user);
        out.writeLong(state.lastHandedOut());
        out.flush();
        return bytes.toByteArray();
    }

    @Override
    public WriterState deserialize(int version, byte[] serialized) throws IOException {
        if (version != VERSION) {
            throw new IOException("Cannot restore writer state of serializer version " + version
                    + ": this version of the sink reads version " + VERSION + " only");
        }
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(serialized));
        int length = in.readInt();
        if (length < 0 || length > serialized.length) {
            throw new IOException("Corrupt writer state: commit user length " + length);
        }
        byte[] user = new byte[length];
        in.readFully(user);
        WriterState state = new WriterState(new String(user, StandardCharsets.UTF_8), in.readLong());
        if (in.available() > 0) {
            throw new IOException("Corrupt writer state: " + in.available() + " trailing bytes");
        }
        return state;
    }
}
