package dev.streamhouse.flink.cdc.source.split;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * Version 1: offset (flag, then UTF-8 bytes with an int length), the history records (count, then
 * each as UTF-8 bytes with an int length), the snapshot-pending flag and skip-before millis.
 */
public final class MySqlBinlogSplitSerializer implements SimpleVersionedSerializer<MySqlBinlogSplit> {

    public static final MySqlBinlogSplitSerializer INSTANCE = new MySqlBinlogSplitSerializer();
    private static final int VERSION = 1;

    @Override
    public int getVersion() {
        return VERSION;
    }

    @Override
    public byte[] serialize(MySqlBinlogSplit split) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeBoolean(split.offsetJson() != null);
            if (split.offsetJson() != null) {
                writeString(out, split.offsetJson());
            }
            out.writeInt(split.history().size());
            for (String record : split.history()) {
                writeString(out, record);
            }
            out.writeBoolean(split.snapshotPending());
            out.writeLong(split.skipBeforeMillis());
        }
        return bytes.toByteArray();
    }

    @Override
    public MySqlBinlogSplit deserialize(int version, byte[] serialized) throws IOException {
        if (version != VERSION) {
            throw new IOException("Cannot read a MySQL CDC split of serializer version " + version
                    + "; this build reads version " + VERSION);
        }
        try (DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(serialized))) {
            String offset = in.readBoolean() ? readString(in) : null;
            int count = in.readInt();
            List<String> history = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                history.add(readString(in));
            }
            boolean snapshotPending = in.readBoolean();
            long skipBefore = in.readLong();
            return new MySqlBinlogSplit(offset, history, snapshotPending, skipBefore);
        }
    }

    static void writeString(DataOutputStream out, String s) throws IOException {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(b.length);
        out.write(b);
    }

    static String readString(DataInputStream in) throws IOException {
        byte[] b = new byte[in.readInt()];
        in.readFully(b);
        return new String(b, StandardCharsets.UTF_8);
    }
}
