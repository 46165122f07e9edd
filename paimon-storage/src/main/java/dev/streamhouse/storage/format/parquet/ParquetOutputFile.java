package dev.streamhouse.storage.format.parquet;

import dev.streamhouse.storage.fs.PositionOutputStream;

import org.apache.parquet.io.OutputFile;

import java.io.IOException;

/**
 * Presents one of our already opened {@link PositionOutputStream}s as a Parquet {@link OutputFile}.
 * It can be "created" once; closing the Parquet stream closes ours (once, however often it is called).
 * Block-size alignment is not supported, so Parquet never pads row groups.
 */
final class ParquetOutputFile implements OutputFile {
    private final PositionOutputStream out;
    private final Stream stream;
    private boolean created;

    ParquetOutputFile(PositionOutputStream out) {
        this.out = out;
        this.stream = new Stream();
    }

    @Override
    public org.apache.parquet.io.PositionOutputStream create(long blockSizeHint) throws IOException {
        if (created) {
            throw new IOException("Cannot create Parquet output: the stream was already handed out");
        }
        created = true;
        return stream;
    }

    @Override
    public org.apache.parquet.io.PositionOutputStream createOrOverwrite(long blockSizeHint) throws IOException {
        return create(blockSizeHint);
    }

    @Override
    public boolean supportsBlockSize() {
        return false;
    }

    @Override
    public long defaultBlockSize() {
        return 0;
    }

    /** Bytes written to the underlying stream so far (still valid after close). */
    long position() throws IOException {
        return out.position();
    }

    /** Closes the underlying stream if the Parquet writer has not; idempotent. */
    void closeStream() throws IOException {
        stream.close();
    }

    private final class Stream extends org.apache.parquet.io.PositionOutputStream {
        private boolean closed;

        @Override
        public long getPos() throws IOException {
            return out.position();
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
        }

        @Override
        public void flush() throws IOException {
            out.flush();
        }

        @Override
        public void close() throws IOException {
            if (!closed) {
                closed = true;
                out.close();
            }
        }
    }
}
