package dev.streamhouse.storage.testutils;

import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.fs.PositionOutputStream;

import java.io.IOException;

/**
 * An output stream whose {@code close()} is a counted {@link FileOperation#CLOSE_OUTPUT} call. The
 * underlying stream is closed even when the close is failed "before", so no file handle leaks; the
 * file may then exist with some or all of its bytes, as after a real failed close.
 */
final class FailingOutputStream extends PositionOutputStream {
    private final PositionOutputStream out;
    private final Path path;
    private final FailingFileIO io;
    private boolean closed;

    FailingOutputStream(PositionOutputStream out, Path path, FailingFileIO io) {
        this.out = out;
        this.path = path;
        this.io = io;
    }

    @Override
    public long position() throws IOException {
        return out.position();
    }

    @Override
    public void write(int b) throws IOException {
        io.beforeWrite(path);
        out.write(b);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        io.beforeWrite(path);
        out.write(b, off, len);
    }

    @Override
    public void flush() throws IOException {
        out.flush();
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        io.call(FileOperation.CLOSE_OUTPUT, path, null, () -> {
            out.close();
            return null;
        }, out::close);
    }
}
