package dev.streamhouse.flink.source.split;

import dev.streamhouse.flink.source.split.v1.DataSplitV1Reader;
import dev.streamhouse.storage.serialization.DataSplitSerializer;
import dev.streamhouse.storage.table.source.DataSplit;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

import java.io.IOException;

/**
 * Writes {@link PaimonSplit}s into checkpoints and the messages from enumerator to readers.
 *
 * <p>Layout (big-endian, via Flink's data output), the same in every version except for the data
 * split bytes:
 * <pre>
 *   UTF     split id (modified UTF-8)
 *   long    records to skip (&gt;= 0)
 *   int     length n of the data split bytes
 *   n bytes the storage DataSplit
 * </pre>
 * Version 1 wrote the data split in Java serialization; it is read into frozen copies of the storage
 * classes' serial forms of that time ({@link DataSplitV1Reader}). Version 2 (current) writes storage's
 * binary form ({@link DataSplitSerializer}, its own version first), so the split format moves on
 * with storage without a new version here. Versions only grow: every version written once stays
 * readable. Thread-safe (no state).
 */
public final class PaimonSplitSerializer implements SimpleVersionedSerializer<PaimonSplit> {
    public static final PaimonSplitSerializer INSTANCE = new PaimonSplitSerializer();

    static final int VERSION_1 = 1;
    static final int VERSION_2 = 2;
    private static final int CURRENT_VERSION = VERSION_2;

    @Override
    public int getVersion() {
        return CURRENT_VERSION;
    }

    @Override
    public byte[] serialize(PaimonSplit split) throws IOException {
        byte[] dataSplit = DataSplitSerializer.INSTANCE.serialize(split.dataSplit());
        DataOutputSerializer out = new DataOutputSerializer(dataSplit.length + 64);
        out.writeUTF(split.splitId());
        out.writeLong(split.recordsToSkip());
        out.writeInt(dataSplit.length);
        out.write(dataSplit);
        return out.getCopyOfBuffer();
    }

    @Override
    public PaimonSplit deserialize(int version, byte[] serialized) throws IOException {
        if (version != VERSION_1 && version != VERSION_2) {
            throw new IOException("Cannot read a Paimon source split of serializer version " + version
                    + ": this reader knows versions up to " + CURRENT_VERSION
                    + "; restore the checkpoint with the release that wrote it or a newer one");
        }
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        String splitId = in.readUTF();
        long recordsToSkip = in.readLong();
        int length = in.readInt();
        if (length < 0 || length > in.available()) {
            throw new IOException("Cannot read Paimon source split " + splitId + ": data split length " + length
                    + " with " + in.available() + " bytes left");
        }
        byte[] dataSplitBytes = new byte[length];
        in.readFully(dataSplitBytes);
        if (in.available() != 0) {
            throw new IOException("Cannot read Paimon source split " + splitId + ": " + in.available()
                    + " unexpected trailing bytes");
        }
        DataSplit dataSplit;
        try {
            dataSplit = version == VERSION_1
                    ? DataSplitV1Reader.read(dataSplitBytes)
                    : DataSplitSerializer.INSTANCE.deserialize(dataSplitBytes);
        } catch (IOException e) {
            throw new IOException("Cannot read the data split of Paimon source split " + splitId + " (version "
                    + version + "): " + e.getMessage(), e);
        }
        return new PaimonSplit(splitId, dataSplit, recordsToSkip);
    }
}
