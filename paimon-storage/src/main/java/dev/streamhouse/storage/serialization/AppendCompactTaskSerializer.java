package dev.streamhouse.storage.serialization;

import dev.streamhouse.storage.table.sink.AppendCompactTask;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

import static dev.streamhouse.storage.serialization.BinaryEncoding.readRow;
import static dev.streamhouse.storage.serialization.BinaryEncoding.writeRow;
import static dev.streamhouse.storage.serialization.FileMetaEncoding.readFiles;
import static dev.streamhouse.storage.serialization.FileMetaEncoding.writeFiles;

/**
 * The binary form of {@link AppendCompactTask}s, for engines that carry them between tasks (no Java
 * serialization). Every form starts with its version; versions only grow.
 *
 * <p>Version 1 (current); big-endian, primitives as in {@link BinaryEncoding}, files in
 * {@link FileMetaEncoding} layout 1:
 * <pre>
 * task := int(version) row(partition) files(files)
 * </pre>
 * Stateless and thread-safe. Malformed bytes and unknown versions fail with {@link IOException}.
 */
public final class AppendCompactTaskSerializer {
    public static final AppendCompactTaskSerializer INSTANCE = new AppendCompactTaskSerializer();

    private static final int VERSION_1 = 1;

    private AppendCompactTaskSerializer() {}

    public byte[] serialize(AppendCompactTask task) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(VERSION_1);
            writeRow(task.partition(), out);
            writeFiles(task.files(), out);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot serialize an append compaction task in memory", e);
        }
        return bytes.toByteArray();
    }

    public AppendCompactTask deserialize(byte[] serialized) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(serialized));
        int version = in.readInt();
        if (version != VERSION_1) {
            throw new IOException("Cannot read an append compaction task of serialization version " + version
                    + ": this release reads version " + VERSION_1);
        }
        AppendCompactTask task;
        try {
            task = new AppendCompactTask(readRow(in), readFiles(in));
        } catch (IllegalArgumentException e) {
            throw new IOException("Cannot read an append compaction task: " + e.getMessage(), e);
        }
        if (in.available() > 0) {
            throw new IOException("Cannot read an append compaction task: " + in.available()
                    + " unexpected trailing bytes");
        }
        return task;
    }
}
