package dev.streamhouse.flink.sink.multitable;

import dev.streamhouse.flink.sink.writer.CommittedCheckpoint;
import dev.streamhouse.storage.catalog.Catalog;
import dev.streamhouse.storage.catalog.Identifier;
import org.apache.flink.core.io.SimpleVersionedSerialization;
import org.apache.flink.core.io.SimpleVersionedSerializer;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a multi-table writer subtask checkpoints: the job's commit user and, per table, the last
 * checkpoint to which it handed new data files (-1 for none), which a restored writer waits to see
 * committed before it continues that table's buckets.
 */
record MultiTableWriterState(String commitUser, Map<String, Long> lastHandedOut) {

    MultiTableWriterState {
        lastHandedOut = Map.copyOf(lastHandedOut);
    }

    /**
     * The state a restored subtask continues from: the commit user of the restored entries
     * ({@code initialCommitUser} if there are none) and, per table, the latest of their checkpoints.
     */
    static MultiTableWriterState restore(Iterable<byte[]> entries, String initialCommitUser) throws IOException {
        String user = initialCommitUser;
        Map<String, Long> last = new HashMap<>();
        for (byte[] bytes : entries) {
            MultiTableWriterState restored = SimpleVersionedSerialization.readVersionAndDeSerialize(Serializer.INSTANCE,
                    bytes);
            user = restored.commitUser();
            restored.lastHandedOut().forEach((table, checkpoint) -> last.merge(table, checkpoint, Math::max));
        }
        return new MultiTableWriterState(user, last);
    }

    /** Waits until each table that still exists shows its last checkpoint here committed. */
    void awaitCommitted(Catalog catalog) throws Exception {
        for (Map.Entry<String, Long> e : lastHandedOut.entrySet()) {
            if (e.getValue() >= 0 && catalog.tableExists(Identifier.fromString(e.getKey()))) {
                CommittedCheckpoint.await(catalog.getTable(Identifier.fromString(e.getKey())), commitUser, e.getValue());
            }
        }
    }

    /**
     * Version 1, big-endian: the commit user (UTF), int n, then n × (table name (UTF), long checkpoint).
     * Versions only grow.
     */
    static final class Serializer implements SimpleVersionedSerializer<MultiTableWriterState> {
        static final Serializer INSTANCE = new Serializer();
        private static final int VERSION = 1;

        @Override
        public int getVersion() {
            return VERSION;
        }

        @Override
        public byte[] serialize(MultiTableWriterState state) throws IOException {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
            DataOutputStream out = new DataOutputStream(bytes);
            out.writeUTF(state.commitUser());
            out.writeInt(state.lastHandedOut().size());
            for (Map.Entry<String, Long> e : new TreeMap<>(state.lastHandedOut()).entrySet()) {
                out.writeUTF(e.getKey());
                out.writeLong(e.getValue());
            }
            out.flush();
            return bytes.toByteArray();
        }

        @Override
        public MultiTableWriterState deserialize(int version, byte[] serialized) throws IOException {
            if (version != VERSION) {
                throw new IOException("Cannot restore the multi-table writer state of version " + version
                        + ": this version of the sink reads version " + VERSION);
            }
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(serialized));
            String user = in.readUTF();
            int n = in.readInt();
            if (n < 0) {
                throw new IOException("Corrupt multi-table writer state: " + n + " tables");
            }
            Map<String, Long> last = new TreeMap<>();
            for (int i = 0; i < n; i++) {
                last.put(in.readUTF(), in.readLong());
            }
            if (in.available() > 0) {
                throw new IOException("Corrupt multi-table writer state: " + in.available() + " trailing bytes");
            }
            return new MultiTableWriterState(user, last);
        }
    }
}
