package dev.streamhouse.storage.serialization;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.index.DeletionVectorMeta;
import dev.streamhouse.storage.index.IndexFileMeta;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.manifest.FileSource;
import dev.streamhouse.storage.stats.SimpleStats;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import static dev.streamhouse.storage.serialization.BinaryEncoding.readCount;
import static dev.streamhouse.storage.serialization.BinaryEncoding.readNullableBytes;
import static dev.streamhouse.storage.serialization.BinaryEncoding.readNullableLong;
import static dev.streamhouse.storage.serialization.BinaryEncoding.readNullableString;
import static dev.streamhouse.storage.serialization.BinaryEncoding.readNullableStrings;
import static dev.streamhouse.storage.serialization.BinaryEncoding.readRow;
import static dev.streamhouse.storage.serialization.BinaryEncoding.readString;
import static dev.streamhouse.storage.serialization.BinaryEncoding.readStrings;
import static dev.streamhouse.storage.serialization.BinaryEncoding.writeNullableBytes;
import static dev.streamhouse.storage.serialization.BinaryEncoding.writeNullableLong;
import static dev.streamhouse.storage.serialization.BinaryEncoding.writeNullableString;
import static dev.streamhouse.storage.serialization.BinaryEncoding.writeNullableStrings;
import static dev.streamhouse.storage.serialization.BinaryEncoding.writeRow;
import static dev.streamhouse.storage.serialization.BinaryEncoding.writeString;
import static dev.streamhouse.storage.serialization.BinaryEncoding.writeStrings;

/**
 * Layout 1 of file metadata, shared by {@link CommitMessageSerializer},
 * {@link DataSplitSerializer} version 1 and {@link AppendCompactTaskSerializer} version 1 (primitives
 * as in {@link BinaryEncoding}):
 *
 * <pre>
 * files     := int(n) n × file
 * file      := string(name) long(size) long(rowCount) row(minKey) row(maxKey) stats(keyStats)
 *              stats(valueStats) long(minSeq) long(maxSeq) long(schemaId) int(level) strings(extraFiles)
 *              ?long(creationTimeMillis) ?long(deleteRowCount) ?bytes(embeddedIndex)
 *              ?byte(fileSource) ?strings(valueStatsCols) ?string(externalPath) ?long(firstRowId)
 *              ?strings(writeCols)
 * indexFiles := int(n) n × indexFile
 * indexFile := string(type) string(name) long(size) long(rowCount)
 *              ?(int(n) n × (string(dataFile) int(offset) int(length) ?long(cardinality)))
 *              ?string(externalPath)
 * stats     := row(min) row(max) ?(int(n) n × ?long(nullCount))
 * </pre>
 * A new field of {@link DataFileMeta} or {@link IndexFileMeta} needs a new layout and new versions
 * of the serializers; layout 1 stays readable.
 */
final class FileMetaEncoding {
    private FileMetaEncoding() {}

    static void writeFiles(List<DataFileMeta> files, DataOutput out) throws IOException {
        out.writeInt(files.size());
        for (DataFileMeta f : files) {
            writeFile(f, out);
        }
    }

    static List<DataFileMeta> readFiles(DataInput in) throws IOException {
        int n = readCount(in);
        List<DataFileMeta> files = new ArrayList<>(Math.min(n, 1024));
        for (int i = 0; i < n; i++) {
            files.add(readFile(in));
        }
        return files;
    }

    private static void writeFile(DataFileMeta f, DataOutput out) throws IOException {
        writeString(f.fileName(), out);
        out.writeLong(f.fileSize());
        out.writeLong(f.rowCount());
        writeRow(f.minKey(), out);
        writeRow(f.maxKey(), out);
        writeStats(f.keyStats(), out);
        writeStats(f.valueStats(), out);
        out.writeLong(f.minSequenceNumber());
        out.writeLong(f.maxSequenceNumber());
        out.writeLong(f.schemaId());
        out.writeInt(f.level());
        writeStrings(f.extraFiles(), out);
        writeNullableLong(f.creationTimeMillis(), out);
        writeNullableLong(f.deleteRowCount(), out);
        writeNullableBytes(f.embeddedIndex(), out);
        out.writeBoolean(f.fileSource() != null);
        if (f.fileSource() != null) {
            out.writeByte(f.fileSource().toByteValue());
        }
        writeNullableStrings(f.valueStatsCols(), out);
        writeNullableString(f.externalPath(), out);
        writeNullableLong(f.firstRowId(), out);
        writeNullableStrings(f.writeCols(), out);
    }

    private static DataFileMeta readFile(DataInput in) throws IOException {
        String name = readString(in);
        long size = in.readLong();
        long rowCount = in.readLong();
        BinaryRow minKey = readRow(in);
        BinaryRow maxKey = readRow(in);
        SimpleStats keyStats = readStats(in);
        SimpleStats valueStats = readStats(in);
        long minSeq = in.readLong();
        long maxSeq = in.readLong();
        long schemaId = in.readLong();
        int level = in.readInt();
        List<String> extraFiles = readStrings(in);
        Long creation = readNullableLong(in);
        Long deleteRowCount = readNullableLong(in);
        byte[] embeddedIndex = readNullableBytes(in);
        FileSource source = in.readBoolean() ? fileSource(in.readByte(), name) : null;
        List<String> valueStatsCols = readNullableStrings(in);
        String externalPath = readNullableString(in);
        Long firstRowId = readNullableLong(in);
        List<String> writeCols = readNullableStrings(in);
        return new DataFileMeta(name, size, rowCount, minKey, maxKey, keyStats, valueStats, minSeq, maxSeq,
                schemaId, level, extraFiles, creation, deleteRowCount, embeddedIndex, source, valueStatsCols,
                externalPath, firstRowId, writeCols);
    }

    private static FileSource fileSource(byte value, String fileName) throws IOException {
        try {
            return FileSource.fromByteValue(value);
        } catch (IllegalArgumentException e) {
            throw new IOException("Corrupt metadata of file " + fileName + ": " + e.getMessage(), e);
        }
    }

    static void writeIndexFiles(List<IndexFileMeta> files, DataOutput out) throws IOException {
        out.writeInt(files.size());
        for (IndexFileMeta f : files) {
            writeString(f.indexType(), out);
            writeString(f.fileName(), out);
            out.writeLong(f.fileSize());
            out.writeLong(f.rowCount());
            List<DeletionVectorMeta> ranges = f.deletionVectorRanges();
            out.writeBoolean(ranges != null);
            if (ranges != null) {
                out.writeInt(ranges.size());
                for (DeletionVectorMeta dv : ranges) {
                    writeString(dv.dataFileName(), out);
                    out.writeInt(dv.offset());
                    out.writeInt(dv.length());
                    writeNullableLong(dv.cardinality(), out);
                }
            }
            writeNullableString(f.externalPath(), out);
        }
    }

    static List<IndexFileMeta> readIndexFiles(DataInput in) throws IOException {
        int n = readCount(in);
        List<IndexFileMeta> files = new ArrayList<>(Math.min(n, 1024));
        for (int i = 0; i < n; i++) {
            String type = readString(in);
            String name = readString(in);
            long size = in.readLong();
            long rowCount = in.readLong();
            List<DeletionVectorMeta> ranges = null;
            if (in.readBoolean()) {
                int r = readCount(in);
                ranges = new ArrayList<>(r);
                for (int j = 0; j < r; j++) {
                    ranges.add(new DeletionVectorMeta(readString(in), in.readInt(), in.readInt(), readNullableLong(in)));
                }
            }
            files.add(new IndexFileMeta(type, name, size, rowCount, ranges, readNullableString(in)));
        }
        return files;
    }

    private static void writeStats(SimpleStats s, DataOutput out) throws IOException {
        writeRow(s.minValues(), out);
        writeRow(s.maxValues(), out);
        Long[] nulls = s.nullCounts();
        out.writeBoolean(nulls != null);
        if (nulls != null) {
            out.writeInt(nulls.length);
            for (Long n : nulls) {
                writeNullableLong(n, out);
            }
        }
    }

    private static SimpleStats readStats(DataInput in) throws IOException {
        BinaryRow min = readRow(in);
        BinaryRow max = readRow(in);
        Long[] nulls = null;
        if (in.readBoolean()) {
            nulls = new Long[readCount(in)];
            for (int i = 0; i < nulls.length; i++) {
                nulls[i] = readNullableLong(in);
            }
        }
        return new SimpleStats(min, max, nulls);
    }
}
