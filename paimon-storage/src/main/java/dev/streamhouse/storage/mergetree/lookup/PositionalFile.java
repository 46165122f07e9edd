package dev.streamhouse.storage.mergetree.lookup;

import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Path;

/**
 * Reads byte ranges of a local file at given positions. Thread-safe: reads are serialized on the file.
 * Deliberately not a {@code FileChannel}: an interrupt of a reading thread (a cancelled task) closes a
 * channel for every thread sharing it, and lookup files are shared.
 */
final class PositionalFile implements Closeable {
    private final Path path;
    private final RandomAccessFile file;
    private long reads;

    PositionalFile(Path path) throws IOException {
        this.path = path;
        this.file = new RandomAccessFile(path.toFile(), "r");
    }

    Path path() {
        return path;
    }

    /** Reads exactly {@code length} bytes at {@code position} into {@code buffer} from {@code offset}. */
    void readFully(long position, byte[] buffer, int offset, int length) throws IOException {
        synchronized (file) {
            reads++;
            file.seek(position);
            try {
                file.readFully(buffer, offset, length);
            } catch (EOFException e) {
                throw new IOException("Cannot read " + length + " bytes at offset " + position + " of lookup file "
                        + path + ": the file ends before; it was changed or truncated outside the cache", e);
            }
        }
    }

    /** Bytes {@code [position, position + length)} as a new array. */
    byte[] read(long position, int length) throws IOException {
        byte[] buffer = new byte[length];
        readFully(position, buffer, 0, length);
        return buffer;
    }

    /** How many reads were made so far (for tests and metrics). */
    long readCount() {
        synchronized (file) {
            return reads;
        }
    }

    @Override
    public void close() throws IOException {
        file.close();
    }
}
