package dev.streamhouse.flink.sink.multitable;

import dev.streamhouse.storage.commit.CommitMessage;
import dev.streamhouse.storage.serialization.CommitMessageSerializer;
import org.apache.flink.core.io.SimpleVersionedSerializer;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * What the multi-table committer checkpoints: the commit user and, per checkpoint not committed yet,
 * each table's messages.
 */
record MultiTableCommitterState(String commitUser, NavigableMap<Long, Map<String, List<CommitMessage>>> pending) {

    /**
     * Version 1, big-endian: the commit user (UTF), int n, then n × (long checkpoint id, int k, then
     * k × (table name (UTF), the messages as {@link CommitMessageSerializer#serializeList} writes them,
     * its version first)). Ascending checkpoint ids, tables by name. Versions only grow.
     */
    static final class Serializer implements SimpleVersionedSerializer<MultiTableCommitterState> {
        static final Serializer INSTANCE = new Serializer();
        private static final int VERSION = 1;
        private static final CommitMessageSerializer MESSAGES = CommitMessageSerializer.INSTANCE;

        @Override
        public int getVersion() {
            return VERSION;
        }

        @Override
        public byte[] serialize(MultiTableCommitterState state) throws IOException {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
            DataOutputStream out = new DataOutputStream(bytes);
            out.writeUTF(state.commitUser());
            out.writeInt(state.pending().size());
            for (Map.Entry<Long, Map<String, List<CommitMessage>>> e : state.pending().entrySet()) {
                out.writeLong(e.getKey());
                out.writeInt(e.getValue().size());
                for (Map.Entry<String, List<CommitMessage>> t : new TreeMap<>(e.getValue()).entrySet()) {
                    out.writeUTF(t.getKey());
                    MESSAGES.serializeList(t.getValue(), out);
                }
            }
            out.flush();
            return bytes.toByteArray();
        }

        @Override
        public MultiTableCommitterState deserialize(int version, byte[] serialized) throws IOException {
            if (version != VERSION) {
                throw new IOException("Cannot restore the multi-table committer state of version " + version
                        + ": this version of the sink reads version " + VERSION);
            }
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(serialized));
            String user = in.readUTF();
            int n = in.readInt();
            if (n < 0) {
                throw new IOException("Corrupt multi-table committer state: " + n + " pending checkpoints");
            }
            NavigableMap<Long, Map<String, List<CommitMessage>>> pending = new TreeMap<>();
            for (int i = 0; i < n; i++) {
                long checkpoint = in.readLong();
                int k = in.readInt();
                if (k < 0) {
                    throw new IOException("Corrupt multi-table committer state: " + k + " tables of checkpoint "
                            + checkpoint);
                }
                Map<String, List<CommitMessage>> tables = new TreeMap<>();
                for (int j = 0; j < k; j++) {
                    tables.put(in.readUTF(), MESSAGES.deserializeList(in));
                }
                pending.put(checkpoint, tables);
            }
            if (in.available() > 0) {
                throw new IOException("Corrupt multi-table committer state: " + in.available() + " trailing bytes");
            }
            return new MultiTableCommitterState(user, pending);
        }
    }
}
