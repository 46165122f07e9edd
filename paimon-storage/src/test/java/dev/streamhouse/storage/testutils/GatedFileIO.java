package dev.streamhouse.storage.testutils;

import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.fs.FileStatus;
import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.fs.PositionOutputStream;
import dev.streamhouse.storage.fs.SeekableInputStream;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Local files whose data-file opens can be held at a gate: while {@link #closeGate() closed}, a thread
 * opening a {@code .parquet} file waits until {@link #openGate()}. Counts those opens. Thread-safe; not for
 * serialization.
 */
public final class GatedFileIO implements FileIO {
    private static final long serialVersionUID = 1L;

    private final transient AtomicInteger dataFileOpens = new AtomicInteger();
    private transient volatile CountDownLatch gate = new CountDownLatch(0);

    public void closeGate() {
        gate = new CountDownLatch(1);
    }

    public void openGate() {
        gate.countDown();
    }

    /** Opens of data files so far (counted before the gate). */
    public int dataFileOpens() {
        return dataFileOpens.get();
    }

    @Override
    public SeekableInputStream newInputStream(Path path) throws IOException {
        if (path.toString().endsWith(".parquet")) {
            dataFileOpens.incrementAndGet();
            try {
                gate.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted at the gate");
            }
        }
        return LocalFileIO.INSTANCE.newInputStream(path);
    }

    @Override
    public PositionOutputStream newOutputStream(Path path, boolean overwrite) throws IOException {
        return LocalFileIO.INSTANCE.newOutputStream(path, overwrite);
    }

    @Override
    public FileStatus status(Path path) throws IOException {
        return LocalFileIO.INSTANCE.status(path);
    }

    @Override
    public List<FileStatus> list(Path directory) throws IOException {
        return LocalFileIO.INSTANCE.list(directory);
    }

    @Override
    public boolean exists(Path path) throws IOException {
        return LocalFileIO.INSTANCE.exists(path);
    }

    @Override
    public boolean delete(Path path, boolean recursive) throws IOException {
        return LocalFileIO.INSTANCE.delete(path, recursive);
    }

    @Override
    public void mkdirs(Path path) throws IOException {
        LocalFileIO.INSTANCE.mkdirs(path);
    }

    @Override
    public boolean rename(Path src, Path dst) throws IOException {
        return LocalFileIO.INSTANCE.rename(src, dst);
    }

    @Override
    public boolean createIfAbsent(Path path, byte[] content) throws IOException {
        return LocalFileIO.INSTANCE.createIfAbsent(path, content);
    }
}
