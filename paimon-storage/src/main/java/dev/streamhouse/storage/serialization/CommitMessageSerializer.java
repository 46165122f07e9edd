package dev.streamhouse.storage.serialization;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.commit.CommitMessage;
import dev.streamhouse.storage.commit.CompactIncrement;
import dev.streamhouse.storage.commit.DataIncrement;

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
import static dev.streamhouse.storage.serialization.BinaryEncoding.readRow;
import static dev.streamhouse.storage.serialization.BinaryEncoding.writeRow;
import static dev.streamhouse.storage.serialization.FileMetaEncoding.readFiles;
import static dev.streamhouse.storage.serialization.FileMetaEncoding.readIndexFiles;
import static dev.streamhouse.storage.serialization.FileMetaEncoding.writeFiles;
import static dev.streamhouse.storage.serialization.FileMetaEncoding.writeIndexFiles;

/**
 * The binary form of {@link CommitMessage}s, for engines that carry them between tasks or keep them
 * in checkpoints (no Java serialization). Every form starts with the version it was written with, so
 * it reads back in any later release; versions only grow.
 *
 * <p>Version 2 (current); big-endian, primitives as in {@link BinaryEncoding}, files in
 * {@link FileMetaEncoding} layout 1:
 * <pre>
 * one message  := int(version) message
 * message list := int(version) int(n) n × message
 * message      := row(partition) int(bucket) int(totalBuckets)
 *                 files(newFiles) files(deletedFiles) files(changelogFiles)
 *                 indexFiles(newIndexFiles) indexFiles(deletedIndexFiles)
 *                 files(compactBefore) files(compactAfter) files(compactChangelogFiles)
 *                 indexFiles(compactNewIndexFiles) indexFiles(compactDeletedIndexFiles)
 * </pre>
 * Version 1 is version 2 without the compaction's index files (read as none).
 * {@link #deserializeListBody} reads a list written without its leading version by formats that
 * recorded the version elsewhere (version 1 of the Flink sink's committables and committer state).
 *
 * <p>Stateless and thread-safe. Malformed bytes and unknown versions fail with {@link IOException}.
 */
public final class CommitMessageSerializer {
    public static final CommitMessageSerializer INSTANCE = new CommitMessageSerializer();

    static final int VERSION_1 = 1;
    static final int VERSION_2 = 2;
    private static final int CURRENT_VERSION = VERSION_2;

    private CommitMessageSerializer() {}

    /** The version {@link #serialize} and {@link #serializeList} write. */
    public int version() {
        return CURRENT_VERSION;
    }

    /** One message, its version first. */
    public byte[] serialize(CommitMessage message) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(CURRENT_VERSION);
            write(message, out);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot serialize a commit message in memory", e);
        }
        return bytes.toByteArray();
    }

    /** A message {@link #serialize} wrote, in this or an earlier release. */
    public CommitMessage deserialize(byte[] serialized) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(serialized));
        int version = in.readInt();
        checkVersion(version);
        CommitMessage message = read(version, in);
        if (in.available() > 0) {
            throw new IOException("Cannot read a commit message (version " + version + "): " + in.available()
                    + " unexpected trailing bytes");
        }
        return message;
    }

    /** Messages in order, the version first; the list is self-delimiting within {@code out}. */
    public void serializeList(List<CommitMessage> messages, DataOutput out) throws IOException {
        out.writeInt(CURRENT_VERSION);
        out.writeInt(messages.size());
        for (CommitMessage m : messages) {
            write(m, out);
        }
    }

    /** A list {@link #serializeList} wrote, in this or an earlier release; reads exactly its bytes. */
    public List<CommitMessage> deserializeList(DataInput in) throws IOException {
        return deserializeListBody(in.readInt(), in);
    }

    /**
     * A list written at {@code version} without the leading version number: {@code int(n) n × message}.
     */
    public List<CommitMessage> deserializeListBody(int version, DataInput in) throws IOException {
        checkVersion(version);
        int n = readCount(in);
        List<CommitMessage> out = new ArrayList<>(Math.min(n, 1024));
        for (int i = 0; i < n; i++) {
            out.add(read(version, in));
        }
        return out;
    }

    private static void checkVersion(int version) throws IOException {
        if (version < VERSION_1 || version > CURRENT_VERSION) {
            throw new IOException("Cannot read commit messages of serialization version " + version
                    + ": this release reads versions " + VERSION_1 + " to " + CURRENT_VERSION
                    + "; read them with the release that wrote them or a newer one");
        }
    }

    private static void write(CommitMessage m, DataOutput out) throws IOException {
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
        writeIndexFiles(c.newIndexFiles(), out);
        writeIndexFiles(c.deletedIndexFiles(), out);
    }

    private static CommitMessage read(int version, DataInput in) throws IOException {
        BinaryRow partition = readRow(in);
        int bucket = in.readInt();
        int totalBuckets = in.readInt();
        DataIncrement d = new DataIncrement(readFiles(in), readFiles(in), readFiles(in), readIndexFiles(in),
                readIndexFiles(in));
        CompactIncrement c = version == VERSION_1
                ? new CompactIncrement(readFiles(in), readFiles(in), readFiles(in))
                : new CompactIncrement(readFiles(in), readFiles(in), readFiles(in), readIndexFiles(in),
                        readIndexFiles(in));
        return new CommitMessage(partition, bucket, totalBuckets, d, c);
    }
}
