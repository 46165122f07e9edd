package dev.streamhouse.storage.serialization;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.deletionvectors.DeletionFile;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.table.source.DataSplit;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInput;
import java.io.DataInputStream;
import java.io.DataOutput;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

import static dev.streamhouse.storage.serialization.BinaryEncoding.readCount;
import static dev.streamhouse.storage.serialization.BinaryEncoding.readNullableLong;
import static dev.streamhouse.storage.serialization.BinaryEncoding.readRow;
import static dev.streamhouse.storage.serialization.BinaryEncoding.readString;
import static dev.streamhouse.storage.serialization.BinaryEncoding.writeNullableLong;
import static dev.streamhouse.storage.serialization.BinaryEncoding.writeRow;
import static dev.streamhouse.storage.serialization.BinaryEncoding.writeString;
import static dev.streamhouse.storage.serialization.FileMetaEncoding.readFiles;
import static dev.streamhouse.storage.serialization.FileMetaEncoding.writeFiles;

/**
 * The binary form of {@link DataSplit}s, for engines that send splits to readers or keep them in
 * checkpoints (no Java serialization). The form starts with the version it was written with, so it
 * reads back in any later release; versions only grow.
 *
 * <p>Big-endian, primitives as in {@link BinaryEncoding}, files in {@link FileMetaEncoding} layout 1:
 * <pre>
 * split         := int(version) long(snapshotId) row(partition) int(bucket) int(totalBuckets)
 *                  boolean(rawConvertible) boolean(delta) files(files) [?deletionFiles] [files(beforeFiles)]
 * deletionFiles := int(n = number of files) n × ?deletionFile
 * deletionFile  := string(index file path) long(offset) long(length) ?long(cardinality)
 * </pre>
 * Version 2 ends with the split's {@link DataSplit#deletionFiles()}; version 1 has no such
 * field and reads back as a split that carries none (a reader looks the vectors of such a full split
 * of a deletion-vector table up from its snapshot). Version 3 (current) adds the
 * {@link DataSplit#beforeFiles()} of diff splits. Splits that are not diff splits are still written as
 * version 2 (the lowest version that holds them, so they stay readable by the release before).
 *
 * <p>Stateless and thread-safe. Malformed bytes and unknown versions fail with {@link IOException}.
 */
public final class DataSplitSerializer {
    public static final DataSplitSerializer INSTANCE = new DataSplitSerializer();

    static final int VERSION_1 = 1;
    static final int VERSION_2 = 2;
    static final int VERSION_3 = 3;
    private static final int CURRENT_VERSION = VERSION_3;

    private DataSplitSerializer() {}

    /** The newest version {@link #serialize} writes (older ones for splits they can hold). */
    public int version() {
        return CURRENT_VERSION;
    }

    public byte[] serialize(DataSplit split) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(128 + 256 * split.files().size());
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(split.diff() ? VERSION_3 : VERSION_2);
            out.writeLong(split.snapshotId());
            writeRow(split.partition(), out);
            out.writeInt(split.bucket());
            out.writeInt(split.totalBuckets());
            out.writeBoolean(split.rawConvertible());
            out.writeBoolean(split.delta());
            writeFiles(split.files(), out);
            writeDeletionFiles(split.deletionFiles(), out);
            if (split.diff()) {
                writeFiles(split.beforeFiles(), out);
            }
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
        List<DeletionFile> deletionFiles = version >= VERSION_2 ? readDeletionFiles(in) : null;
        List<DataFileMeta> beforeFiles = version >= VERSION_3 ? readFiles(in) : List.of();
        if (in.available() > 0) {
            throw new IOException("Cannot read a data split of snapshot " + snapshotId + ", bucket " + bucket
                    + " (version " + version + "): " + in.available() + " unexpected trailing bytes");
        }
        try {
            return new DataSplit(snapshotId, partition, bucket, totalBuckets, files, rawConvertible, delta,
                    deletionFiles, beforeFiles);
        } catch (IllegalArgumentException e) {
            throw new IOException("Cannot read a data split of snapshot " + snapshotId + ", bucket " + bucket
                    + " (version " + version + "): " + e.getMessage(), e);
        }
    }

    private static void writeDeletionFiles(List<DeletionFile> files, DataOutput out) throws IOException {
        out.writeBoolean(files != null);
        if (files == null) {
            return;
        }
        out.writeInt(files.size());
        for (DeletionFile f : files) {
            out.writeBoolean(f != null);
            if (f != null) {
                writeString(f.path(), out);
                out.writeLong(f.offset());
                out.writeLong(f.length());
                writeNullableLong(f.cardinality(), out);
            }
        }
    }

    private static List<DeletionFile> readDeletionFiles(DataInput in) throws IOException {
        if (!in.readBoolean()) {
            return null;
        }
        int n = readCount(in);
        List<DeletionFile> out = new ArrayList<>(Math.min(n, 1024));
        for (int i = 0; i < n; i++) {
            out.add(in.readBoolean() ? new DeletionFile(readString(in), in.readLong(), in.readLong(),
                    readNullableLong(in)) : null);
        }
        return out;
    }
}
