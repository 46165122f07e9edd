package dev.streamhouse.storage.manifest;

import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.fs.FileStatus;
import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.fs.PositionOutputStream;
import dev.streamhouse.storage.fs.SeekableInputStream;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The local file system with injectable failures: opening the N-th output stream, or reading past a
 * byte budget of an input stream. Counts opened input streams so tests can see which files were read.
 */
final class TestFileIO implements FileIO {
    private static final long serialVersionUID = 1L;
    private final FileIO delegate = LocalFileIO.INSTANCE;

    /** Fail the output stream open with this 1-based number; 0 = never. */
    volatile int failOutputStreamNumber;
    /** Fail input streams once they have returned this many bytes; -1 = never. */
    volatile long failInputAfterBytes = -1;
    final AtomicInteger outputStreamsOpened = new AtomicInteger();
    final AtomicInteger inputStreamsOpened = new AtomicInteger();
    /** Bytes all input streams returned so far. */
    final java.util.concurrent.atomic.AtomicLong bytesRead = new java.util.concurrent.atomic.AtomicLong();

    @Override
    public SeekableInputStream newInputStream(Path path) throws IOException {
        SeekableInputStream in = delegate.newInputStream(path);
        inputStreamsOpened.incrementAndGet();
        long budget = failInputAfterBytes < 0 ? Long.MAX_VALUE : failInputAfterBytes;
        return new SeekableInputStream() {
            long served;

            @Override
            public void seek(long position) throws IOException {
                in.seek(position);
            }

            @Override
            public long position() throws IOException {
                return in.position();
            }

            @Override
            public int read() throws IOException {
                check();
                int b = in.read();
                if (b >= 0) {
                    served++;
                    bytesRead.incrementAndGet();
                }
                return b;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                check();
                int n = in.read(b, off, (int) Math.max(1, Math.min(len, budget - served)));
                served += Math.max(n, 0);
                bytesRead.addAndGet(Math.max(n, 0));
                return n;
            }

            private void check() throws IOException {
                if (served >= budget) {
                    throw new IOException("injected read failure of " + path);
                }
            }

            @Override
            public void close() throws IOException {
                in.close();
            }
        };
    }

    @Override
    public PositionOutputStream newOutputStream(Path path, boolean overwrite) throws IOException {
        if (outputStreamsOpened.incrementAndGet() == failOutputStreamNumber) {
            throw new IOException("injected failure creating " + path);
        }
        return delegate.newOutputStream(path, overwrite);
    }

    @Override
    public FileStatus status(Path path) throws IOException {
        return delegate.status(path);
    }

    @Override
    public List<FileStatus> list(Path directory) throws IOException {
        return delegate.list(directory);
    }

    @Override
    public boolean exists(Path path) throws IOException {
        return delegate.exists(path);
    }

    @Override
    public boolean delete(Path path, boolean recursive) throws IOException {
        return delegate.delete(path, recursive);
    }

    @Override
    public void mkdirs(Path path) throws IOException {
        delegate.mkdirs(path);
    }

    @Override
    public boolean rename(Path src, Path dst) throws IOException {
        return delegate.rename(src, dst);
    }

    @Override
    public boolean createIfAbsent(Path path, byte[] content) throws IOException {
        return delegate.createIfAbsent(path, content);
    }
}
