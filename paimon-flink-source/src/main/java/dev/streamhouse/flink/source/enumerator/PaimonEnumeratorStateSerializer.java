package dev.streamhouse.flink.source.enumerator;

import dev.streamhouse.flink.source.split.PaimonSplit;
import dev.streamhouse.flink.source.split.PaimonSplitSerializer;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes {@link PaimonEnumeratorState} into checkpoints.
 *
 * <p>Version 1 layout (big-endian), written by bounded reads before unbounded reads existed:
 * <pre>
 *   int   version of the split serializer the splits below were written with
 *   int   number of unassigned splits n
 *   n x ( int length m, m bytes: one split as written by {@link PaimonSplitSerializer} )
 * </pre>
 * Version 2 (current) appends the next snapshot of an unbounded read:
 * <pre>
 *   ...   everything of version 1
 *   byte  1 if a next snapshot id follows, 0 if none was decided (and for bounded reads)
 *   long  the next snapshot id (only if the byte is 1)
 * </pre>
 * A version 1 state reads as having no next snapshot. The split version is stored so that the split
 * format can move on without a new state version. Versions only grow; every version written once
 * stays readable.
 */
public final class PaimonEnumeratorStateSerializer implements SimpleVersionedSerializer<PaimonEnumeratorState> {
    static final int VERSION_1 = 1;
    static final int VERSION_2 = 2;
    private static final int CURRENT_VERSION = VERSION_2;

    private final SimpleVersionedSerializer<PaimonSplit> splitSerializer;

    public PaimonEnumeratorStateSerializer(SimpleVersionedSerializer<PaimonSplit> splitSerializer) {
        this.splitSerializer = splitSerializer;
    }

    @Override
    public int getVersion() {
        return CURRENT_VERSION;
    }

    @Override
    public byte[] serialize(PaimonEnumeratorState state) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(256);
        out.writeInt(splitSerializer.getVersion());
        out.writeInt(state.unassignedSplits().size());
        for (PaimonSplit split : state.unassignedSplits()) {
            byte[] bytes = splitSerializer.serialize(split);
            out.writeInt(bytes.length);
            out.write(bytes);
        }
        Long next = state.nextSnapshotId();
        out.writeBoolean(next != null);
        if (next != null) {
            out.writeLong(next);
        }
        return out.getCopyOfBuffer();
    }

    @Override
    public PaimonEnumeratorState deserialize(int version, byte[] serialized) throws IOException {
        if (version != VERSION_1 && version != VERSION_2) {
            throw new IOException("Cannot read a Paimon source enumerator state of serializer version " + version
                    + ": this reader knows versions up to " + CURRENT_VERSION
                    + "; restore the checkpoint with the release that wrote it or a newer one");
        }
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        int splitVersion = in.readInt();
        int count = in.readInt();
        if (count < 0) {
            throw new IOException("Cannot read a Paimon source enumerator state: negative split count " + count);
        }
        List<PaimonSplit> splits = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            byte[] bytes = new byte[in.readInt()];
            in.readFully(bytes);
            splits.add(splitSerializer.deserialize(splitVersion, bytes));
        }
        Long next = null;
        if (version >= VERSION_2 && in.readBoolean()) {
            next = in.readLong();
        }
        if (in.available() != 0) {
            throw new IOException("Cannot read a Paimon source enumerator state (version " + version + "): "
                    + in.available() + " unexpected trailing bytes");
        }
        return new PaimonEnumeratorState(splits, next);
    }
}
