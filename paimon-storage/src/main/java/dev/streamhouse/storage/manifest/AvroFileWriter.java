package dev.streamhouse.storage.manifest;

import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.fs.Path;
import org.apache.avro.Schema;
import org.apache.avro.file.CodecFactory;
import org.apache.avro.file.DataFileWriter;
import org.apache.avro.io.DatumWriter;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;

/**
 * Writes one Avro object container file through {@link FileIO} and knows its exact size.
 *
 * <p>The header holds only {@code avro.schema} and {@code avro.codec}, as Paimon's. Records are
 * buffered into blocks of about {@code blockSizeBytes} (uncompressed) before they reach the file, so
 * {@link #bytesWritten()} grows in block steps; callers that roll at a target size pass a block size
 * well below the target. Call {@link #finish()} to complete the file; {@link #close()} without it
 * (or {@link #abort()}) deletes the partial file. Not thread-safe.
 */
public final class AvroFileWriter<T> implements AutoCloseable {
    /** Avro's default block size. */
    public static final int DEFAULT_BLOCK_SIZE = 64_000;

    private final FileIO fileIO;
    private final Path path;
    private final CountingOutputStream out;
    private final DataFileWriter<T> writer;
    private long recordCount;
    private boolean closed;

    public AvroFileWriter(FileIO fileIO, Path path, Schema schema, CodecFactory codec, DatumWriter<T> datumWriter,
            int blockSizeBytes) throws IOException {
        this.fileIO = fileIO;
        this.path = path;
        this.out = new CountingOutputStream(fileIO.newOutputStream(path, false));
        DataFileWriter<T> w = new DataFileWriter<>(datumWriter);
        w.setCodec(codec);
        w.setSyncInterval(Math.max(32, Math.min(blockSizeBytes, DEFAULT_BLOCK_SIZE)));
        try {
            this.writer = w.create(schema, out);
        } catch (IOException | RuntimeException e) {
            abortQuietly(w);
            fileIO.deleteQuietly(path);
            throw e;
        }
    }

    public Path path() {
        return path;
    }

    public void append(T datum) throws IOException {
        writer.append(datum);
        recordCount++;
    }

    public long recordCount() {
        return recordCount;
    }

    /** Bytes that have reached the file so far (header plus completed blocks). */
    public long bytesWritten() {
        return out.count;
    }

    /** Flushes the last block, closes the file and returns its exact length in bytes. */
    public long finish() throws IOException {
        closed = true;
        writer.close();
        return out.count;
    }

    /** Closes (if still open) and deletes the file, swallowing failures; for error paths. */
    public void abort() {
        if (!closed) {
            closed = true;
            abortQuietly(writer);
        }
        fileIO.deleteQuietly(path);
    }

    private void abortQuietly(DataFileWriter<T> w) {
        try {
            w.close();
        } catch (IOException | RuntimeException ignored) {
            // the file is deleted next
        }
        try {
            out.close();
        } catch (IOException | RuntimeException ignored) {
            // the file is deleted next
        }
    }

    @Override
    public void close() {
        if (!closed) {
            abort();
        }
    }

    private static final class CountingOutputStream extends FilterOutputStream {
        long count;

        CountingOutputStream(OutputStream out) {
            super(out);
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
            count++;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
            count += len;
        }
    }
}
