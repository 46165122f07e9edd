package dev.streamhouse.flink.sink.committable;

import org.apache.flink.core.io.SimpleVersionedSerializer;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;

/**
 * Serializes {@link Committable}s on their way from writers to the committer. Version 1:
 * {@code long(checkpointId, Long.MAX_VALUE = end of input)} followed by the messages in
 * {@link CommitMessageCodec} layout 1. Later versions must keep reading version 1.
 */
public final class CommittableSerializer implements SimpleVersionedSerializer<Committable> {
    public static final CommittableSerializer INSTANCE = new CommittableSerializer();

    private static final int VERSION = 1;

    @Override
    public int getVersion() {
        return VERSION;
    }

    @Override
    public byte[] serialize(Committable committable) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeLong(committable.encodedCheckpointId());
        CommitMessageCodec.writeMessages(committable.messages(), out);
        out.flush();
        return bytes.toByteArray();
    }

    @Override
    public Committable deserialize(int version, byte[] serialized) throws IOException {
        if (version != VERSION) {
            throw new IOException("Cannot read a committable of serializer version " + version
                    + ": this version of the sink reads version " + VERSION + " only");
        }
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(serialized));
        long checkpointId = in.readLong();
        Committable c = Committable.decode(checkpointId, CommitMessageCodec.readMessages(in));
        if (in.available() > 0) {
            throw new IOException("Corrupt committable: " + in.available() + " trailing bytes");
        }
        return c;
    }
}
