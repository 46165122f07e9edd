package dev.streamhouse.flink.sink.committable;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.index.DeletionVectorMeta;
import dev.streamhouse.storage.index.IndexFileMeta;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.manifest.FileSource;
import dev.streamhouse.storage.stats.SimpleStats;
import dev.streamhouse.storage.table.sink.CommitMessage;
import dev.streamhouse.storage.table.sink.CompactIncrement;
import dev.streamhouse.storage.table.sink.DataIncrement;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The binary form of {@link CommitMessage}s in committables and committer state, field by field
 * (no Java serialization). Callers version the enclosing bytes; this is layout 1:
 *
 * <pre>
 * message   := row(partition) int(bucket) int(totalBuckets)
 *              files(newFiles) files(deletedFiles) files(changelogFiles)
 *              indexFiles(newIndexFiles) indexFiles(deletedIndexFiles)
 *              files(compactBefore) files(compactAfter) files(compactChangelogFiles)
 * file      := string(name) long(size) long(rowCount) row(minKey) row(maxKey) stats(keyStats)
 *              stats(valueStats) long(minSeq) long(maxSeq) long(schemaId) int(level) strings(extraFiles)
 *              ?long(creationTimeMillis) ?long(deleteRowCount) ?bytes(embeddedIndex)
 *              ?byte(fileSource) ?strings(valueStatsCols) ?string(externalPath) ?long(firstRowId)
 *              ?strings(writeCols)
 * indexFile := string(type) string(name) long(size) long(rowCount)
 *              ?list(string(dataFile) int(offset) int(length) ?long(cardinality)) ?string(externalPath)
 * stats     := row(min) row(max) ?(int(n) n × ?long(nullCount))
 * row       := bytes(BinaryRow serialized form: int32 arity + row bytes)
 * ?x        := boolean(present) [x]      list/files/strings := int(n) n × element
 * string    := bytes(UTF-8)              bytes := int(length) length × byte
 * </pre>
 */
public final class CommitMessageCodec {
    private CommitMessageCodec() {}

    public static void writeMessages(List<CommitMessage> messages, DataOutput out) throws IOException {
        out.writeInt(messages.size());
        for (CommitMessage m : messages) {
            write(m, out);
        }
    }

    public static List<CommitMessage> readMessages(DataInput in) throws IOException {
        int n = readCount(in);
        List<CommitMessage> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(read(in));
        }
        return out;
    }

    public static void write(CommitMessage m, DataOutput out) throws IOException {
        writeRow(m.partition(), out);
        out.writeInt(m.bucket());
        out.writeInt(m.totalBuckets());
        DataIncrement d = m.dataIncrement();
        writeFiles(d.newFiles(), out);
        writeFiles(d.deletedFiles(), out);
        writeFiles(d.changelogFiles(), out);
        writeIndexFiles(d.newIndexFiles(), out);
        writeIndexFiles(d.deletedIndexFiles(), out);
        CompactIncrement c = m.compactIncrement();
        writeFiles(c.compactBefore(), out);
        writeFiles(c.compactAfter(), out);
        writeFiles(c.changelogFiles(), out);
    }

    public static CommitMessage read(DataInput in) throws IOException {
        BinaryRow partition = readRow(in);
        int bucket = in.readInt();
        int totalBuckets = in.readInt();
        DataIncrement d = new DataIncrement(readFiles(in), readFiles(in), readFiles(in), readIndexFiles(in),
                readIndexFiles(in));
        CompactIncrement c = new CompactIncrement(readFiles(in), readFiles(in), readFiles(in));
        return new CommitMessage(partition, bucket, totalBuckets, d, c);
    }

    private static void writeFiles(List<DataFileMeta> files, DataOutput out) throws IOException {
        out.writeInt(files.size());
        for (DataFileMeta f : files) {
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
            out.writeBoolean(f.embeddedIndex() != null);
            if (f.embeddedIndex() != null) {
                writeBytes(f.embeddedIndex(), out);
            }
            out.writeBoolean(f.fileSource() != null);
            if (f.fileSource() != null) {
                out.writeByte(f.fileSource().toByteValue());
            }
            writeNullableStrings(f.valueStatsCols(), out);
            writeNullableString(f.externalPath(), out);
            writeNullableLong(f.firstRowId(), out);
            writeNullableStrings(f.writeCols(), out);
        }
    }

    private static List<DataFileMeta> readFiles(DataInput in) throws IOException {
        int n = readCount(in);
        List<DataFileMeta> files = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
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
            byte[] embeddedIndex = in.readBoolean() ? readBytes(in) : null;
            FileSource source = in.readBoolean() ? FileSource.fromByteValue(in.readByte()) : null;
            List<String> valueStatsCols = readNullableStrings(in);
            String externalPath = readNullableString(in);
            Long firstRowId = readNullableLong(in);
            List<String> writeCols = readNullableStrings(in);
            files.add(new DataFileMeta(name, size, rowCount, minKey, maxKey, keyStats, valueStats, minSeq, maxSeq,
                    schemaId, level, extraFiles, creation, deleteRowCount, embeddedIndex, source, valueStatsCols,
                    externalPath, firstRowId, writeCols));
        }
        return files;
    }

    private static void writeIndexFiles(List<IndexFileMeta> files, DataOutput out) throws IOException {
        out.writeInt(files.size());
        for (IndexFileMeta f : files) {
            writeString(f.indexType(), out);
            writeString(f.fileName(), out);
            out.writeLong(f.fileSize());
            out.writeLong(f.rowCount());
            out.writeBoolean(f.deletionVectorRanges() != null);
            if (f.deletionVectorRanges() != null) {
                out.writeInt(f.deletionVectorRanges().size());
                for (DeletionVectorMeta dv : f.deletionVectorRanges()) {
                    writeString(dv.dataFileName(), out);
                    out.writeInt(dv.offset());
                    out.writeInt(dv.length());
                    writeNullableLong(dv.cardinality(), out);
                }
            }
            writeNullableString(f.externalPath(), out);
        }
    }

    private static List<IndexFileMeta> readIndexFiles(DataInput in) throws IOException {
        int n = readCount(in);
        List<IndexFileMeta> files = new ArrayList<>(n);
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

    private static void writeRow(BinaryRow row, DataOutput out) throws IOException {
        writeBytes(row.toSerializedBytes(), out);
    }

    private static BinaryRow readRow(DataInput in) throws IOException {
        return BinaryRow.fromSerializedBytes(readBytes(in));
    }

    private static void writeNullableLong(Long v, DataOutput out) throws IOException {
        out.writeBoolean(v != null);
        if (v != null) {
            out.writeLong(v);
        }
    }

    private static Long readNullableLong(DataInput in) throws IOException {
        return in.readBoolean() ? in.readLong() : null;
    }

    private static void writeStrings(List<String> values, DataOutput out) throws IOException {
        out.writeInt(values.size());
        for (String s : values) {
            writeString(s, out);
        }
    }

    private static List<String> readStrings(DataInput in) throws IOException {
        int n = readCount(in);
        List<String> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(readString(in));
        }
        return out;
    }

    private static void writeNullableStrings(List<String> values, DataOutput out) throws IOException {
        out.writeBoolean(values != null);
        if (values != null) {
            writeStrings(values, out);
        }
    }

    private static List<String> readNullableStrings(DataInput in) throws IOException {
        return in.readBoolean() ? readStrings(in) : null;
    }

    private static void writeNullableString(String s, DataOutput out) throws IOException {
        out.writeBoolean(s != null);
        if (s != null) {
            writeString(s, out);
        }
    }

    private static String readNullableString(DataInput in) throws IOException {
        return in.readBoolean() ? readString(in) : null;
    }

    private static void writeString(String s, DataOutput out) throws IOException {
        writeBytes(s.getBytes(StandardCharsets.UTF_8), out);
    }

    private static String readString(DataInput in) throws IOException {
        return new String(readBytes(in), StandardCharsets.UTF_8);
    }

    private static void writeBytes(byte[] b, DataOutput out) throws IOException {
        out.writeInt(b.length);
        out.write(b);
    }

    private static byte[] readBytes(DataInput in) throws IOException {
        byte[] b = new byte[readCount(in)];
        in.readFully(b);
        return b;
    }

    private static int readCount(DataInput in) throws IOException {
        int n = in.readInt();
        if (n < 0) {
            throw new IOException("Corrupt commit message bytes: negative length " + n);
        }
        return n;
    }
}
