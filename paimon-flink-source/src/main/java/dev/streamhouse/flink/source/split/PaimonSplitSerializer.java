package dev.streamhouse.flink.source.split;

import dev.streamhouse.storage.table.source.DataSplit;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.apache.flink.util.InstantiationUtil;

import java.io.IOException;

/**
 * Writes {@link PaimonSplit}s into checkpoints and the messages from enumerator to readers.
 *
 * <p>Version 1 layout (big-endian, via Flink's data output):
 * <pre>
 *   UTF     split id (modified UTF-8)
 *   long    records to skip (&gt;= 0)
 *   int     length n of the data split bytes
 *   n bytes the storage DataSplit in Java serialization
 * </pre>
 * Java serialization ties version 1 to the storage classes' serial forms; a later version should
 * write the data split's fields explicitly. Versions only grow: every version written once stays
 * readable. Thread-safe (no state).
 */
public final class PaimonSplitSerializer implements SimpleVersionedSerializer<PaimonSplit> {
    public static final PaimonSplitSerializer INSTANCE = new PaimonSplitSerializer();

    static final int VERSION_1 = 1;
    private static final int CURRENT_VERSION = VERSION_1;

    @Override
    public int getVersion() {
        return CURRENT_VERSION;
    }

    @Override
    public byte[] serialize(PaimonSplit split) throws IOException {
        byte[] dataSplit = InstantiationUtil.serializeObject(split.dataSplit());
        DataOutputSerializer out = new DataOutputSerializer(dataSplit.length + 64);
        out.writeUTF(split.splitId());
        out.writeLong(split.recordsToSkip());
        out.writeInt(dataSplit.length);
        out.write(dataSplit);
        return out.getCopyOfBuffer();
    }

    @Override
    public PaimonSplit deserialize(int version, byte[] serialized) throws IOException {
        if (version != VERSION_1) {
            throw new IOException("Cannot read a Paimon source split of serializer version " + version
                    + ": this reader knows versions up to " + CURRENT_VERSION
                    + "; restore the checkpoint with the release that wrote it or a newer one");
        }
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        String splitId = in.readUTF();
        long recordsToSkip = in.readLong();
        byte[] dataSplitBytes = new byte[in.readInt()];
        in.readFully(dataSplitBytes);
        if (in.available() != 0) {
            throw new IOException("Cannot read Paimon source split " + splitId + ": " + in.available()
                    + " unexpected trailing bytes");
        }
        DataSplit dataSplit;
        try {
            dataSplit = InstantiationUtil.deserializeObject(dataSplitBytes, PaimonSplitSerializer.class.getClassLoader());
        } catch (ClassNotFoundException | ClassCastException e) {
            throw new IOException("Cannot read the data split of Paimon source split " + splitId + ": " + e, e);
        }
        return new PaimonSplit(splitId, dataSplit, recordsToSkip);
    }
}
