package dev.streamhouse.storage.serialization;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.table.source.DataSplit;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

import static dev.streamhouse.storage.serialization.BinaryEncoding.readRow;
import static dev.streamhouse.storage.serialization.BinaryEncoding.writeRow;
import static dev.streamhouse.storage.serialization.FileMetaEncoding.readFiles;
import static dev.streamhouse.storage.serialization.FileMetaEncoding.writeFiles;

/**
 * The binary form of {@link DataSplit}s, for engines that send splits to readers or keep them in
 * checkpoints (no Java serialization). The form starts with the version it was written with, so it
 * reads back in any later release; versions only grow.
 *
 * <p>Version 1 (current); big-endian, primitives as in {@link BinaryEncoding}, files in
 * {@link FileMetaEncoding} layout 1:
 * <pre>
 * split := int(version) long(snapshotId) row(partition) int(bucket) int(totalBuckets)
 *          boolean(rawConvertible) boolean(delta) files(files)
 * </pre>
 *
 * <p>Stateless and thread-safe. Malformed bytes and unknown versions fail with {@link IOException}.
 */
public final class DataSplitSerializer {
    public static final DataSplitSerializer INSTANCE = new DataSplitSerializer();

    static final int VERSION_1 = 1;
    private static final int CURRENT_VERSION = VERSION_1;

    private DataSplitSerializer() {}

    /** The version {@link #serialize} writes. */
    public int version() {
        return CURRENT_VERSION;
    }

    public byte[] serialize(DataSplit split) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(128 + 256 * split.files().size());
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(CURRENT_VERSION);
            out.writeLong(split.snapshotId());
            writeRow(split.partition(), out);
            out.writeInt(split.bucket());
            out.writeInt(split.totalBuckets());
            out.writeBoolean(split.rawConvertible());
            out.writeBoolean(split.delta());
            writeFiles(split.files(), out);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot serialize a data split in memory", e);
        }
        return bytes.toByteArray();
    }

    /** A split {@link #serialize} wrote, in this or an earlier release. */
    public DataSplit deserialize(byte[] serialized) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(serialized));
        int version = in.readInt();
        if (version < VERSION_1 || version > CURRENT_VERSION) {
            throw new IOException("Cannot read a data split of serialization version " + version
                    + ": this release reads versions " + VERSION_1 + " to " + CURRENT_VERSION
                    + "; read it with the release that wrote it or a newer one");
        }
        long snapshotId = in.readLong();
        BinaryRow partition = readRow(in);
        int bucket = in.readInt();
        int totalBuckets = in.readInt();
        boolean rawConvertible = in.readBoolean();
        boolean delta = in.readBoolean();
        List<DataFileMeta> files = readFiles(in);
        if (in.available() > 0) {
            throw new IOException("Cannot read a data split of snapshot " + snapshotId + ", bucket " + bucket
                    + " (version " + version + "): " + in.available() + " unexpected trailing bytes");
        }
        return new DataSplit(snapshotId, partition, bucket, totalBuckets, files, rawConvertible, delta);
    }
}
