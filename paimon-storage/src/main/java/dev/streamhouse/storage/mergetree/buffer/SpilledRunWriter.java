package dev.streamhouse.storage.mergetree.buffer;

import net.jpountz.lz4.LZ4BlockOutputStream;
import net.jpountz.lz4.LZ4Factory;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes records (in {@link RecordLayout}, already sorted by the caller) into a new LZ4-block-compressed
 * spill file. On failure the file is deleted and the error names it.
 */
final class SpilledRunWriter {
    /** LZ4 block size; a reader holds about two blocks in memory. */
    static final int BLOCK_SIZE = 32 * 1024;
    private static final int LZ4_BLOCK_HEADER = 21;

    private final Path path;
    private final OutputStream out;
    private long records;

    private SpilledRunWriter(Path path, OutputStream out) {
        this.path = path;
        this.out = out;
    }

    static SpilledRunWriter create(Path directory) throws IOException {
        Path path = SpillFiles.create(directory);
        try {
            OutputStream out = new LZ4BlockOutputStream(
                    new FileOutputStream(path.toFile()), BLOCK_SIZE, LZ4Factory.fastestInstance().fastCompressor());
            return new SpilledRunWriter(path, out);
        } catch (IOException | RuntimeException e) {
            SpillFiles.delete(path);
            throw new IOException("Cannot open write-buffer spill file " + path + ": " + e, e);
        }
    }

    /** The largest file {@code recordBytes} of records can compress to (LZ4 worst case plus headers). */
    static long maxFileBytes(long recordBytes) {
        long blocks = (recordBytes + BLOCK_SIZE - 1) / BLOCK_SIZE;
        return recordBytes + recordBytes / 255 + blocks * (16 + LZ4_BLOCK_HEADER) + LZ4_BLOCK_HEADER;
    }

    Path path() {
        return path;
    }

    /** Appends the record starting at {@code offset} of {@code buf}. */
    void write(byte[] buf, int offset) throws IOException {
        try {
            out.write(buf, offset, RecordLayout.recordSize(buf, offset));
            records++;
        } catch (IOException e) {
            abort();
            throw new IOException("Cannot write write-buffer spill file " + path + ": " + e, e);
        }
    }

    /** Closes the file and describes it. */
    SpilledRun finish() throws IOException {
        try {
            out.close();
            return new SpilledRun(path, records, Files.size(path));
        } catch (IOException e) {
            SpillFiles.delete(path);
            throw new IOException("Cannot finish write-buffer spill file " + path + ": " + e, e);
        }
    }

    /** Closes and deletes the file, ignoring errors (used when writing failed). */
    void abort() {
        try {
            out.close();
        } catch (IOException | RuntimeException e) {
            // Already failing; the file is deleted below.
        }
        SpillFiles.delete(path);
    }
}
