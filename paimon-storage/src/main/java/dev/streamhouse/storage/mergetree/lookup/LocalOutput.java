package dev.streamhouse.storage.mergetree.lookup;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** A new local file written front to back, counting its bytes; {@link #abort()} deletes it. Not thread-safe. */
final class LocalOutput {
    private final Path path;
    private final OutputStream out;
    private long position;
    private boolean closed;

    LocalOutput(Path path) throws IOException {
        this.path = path;
        this.out = new BufferedOutputStream(
                Files.newOutputStream(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE), 64 << 10);
    }

    Path path() {
        return path;
    }

    /** Bytes written so far: the offset of the next byte. */
    long position() {
        return position;
    }

    void write(byte[] bytes, int offset, int length) throws IOException {
        out.write(bytes, offset, length);
        position += length;
    }

    void close() throws IOException {
        if (!closed) {
            closed = true;
            out.close();
        }
    }

    /** Closes and deletes the file, keeping quiet about failures (the caller is already failing). */
    void abort() {
        try {
            close();
        } catch (IOException ignored) {
            // the file is deleted next; nothing of it is kept
        }
        try {
            Files.deleteIfExists(path);
        } catch (IOException ignored) {
            // the cache deletes its whole directory when closed
        }
    }
}
