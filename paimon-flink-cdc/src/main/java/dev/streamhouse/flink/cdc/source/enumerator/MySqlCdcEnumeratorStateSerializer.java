package dev.streamhouse.flink.cdc.source.enumerator;

import dev.streamhouse.flink.cdc.source.split.MySqlBinlogSplitSerializer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/** Version 1: created and snapshot-finished flags, then the unassigned split (flag, version, bytes). */
public final class MySqlCdcEnumeratorStateSerializer implements SimpleVersionedSerializer<MySqlCdcEnumeratorState> {

    private static final int VERSION = 1;

    @Override
    public int getVersion() {
        return VERSION;
    }

    @Override
    public byte[] serialize(MySqlCdcEnumeratorState state) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeBoolean(state.created());
            out.writeBoolean(state.snapshotFinished());
            out.writeBoolean(state.unassigned() != null);
            if (state.unassigned() != null) {
                byte[] split = MySqlBinlogSplitSerializer.INSTANCE.serialize(state.unassigned());
                out.writeInt(MySqlBinlogSplitSerializer.INSTANCE.getVersion());
                out.writeInt(split.length);
                out.write(split);
            }
        }
        return bytes.toByteArray();
    }

    @Override
    public MySqlCdcEnumeratorState deserialize(int version, byte[] serialized) throws IOException {
        if (version != VERSION) {
            throw new IOException("Cannot read a MySQL CDC enumerator state of version " + version
                    + "; this build reads version " + VERSION);
        }
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(serialized))) {
            boolean created = in.readBoolean();
            boolean snapshotFinished = in.readBoolean();
            if (!in.readBoolean()) {
                return new MySqlCdcEnumeratorState(null, created, snapshotFinished);
            }
            int splitVersion = in.readInt();
            byte[] split = new byte[in.readInt()];
            in.readFully(split);
            return new MySqlCdcEnumeratorState(MySqlBinlogSplitSerializer.INSTANCE.deserialize(splitVersion, split),
                    created, snapshotFinished);
        }
    }
}
