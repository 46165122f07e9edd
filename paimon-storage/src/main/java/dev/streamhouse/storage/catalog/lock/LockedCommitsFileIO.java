package dev.streamhouse.storage.catalog.lock;

import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.fs.FileStatus;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.fs.PositionOutputStream;
import dev.streamhouse.storage.fs.SeekableInputStream;

import java.io.IOException;
import java.util.List;

/**
 * The file IO of one table under a catalog's commit lock: every {@link #createIfAbsent} (the publishing of
 * a snapshot, schema, tag, ...) runs while holding the table's {@link CommitLock}, with the delegate's
 * {@link FileIO#createIfAbsentUnderLock}; everything else goes straight to the delegate.
 */
public final class LockedCommitsFileIO implements FileIO {
    private static final long serialVersionUID = 1L;

    private final FileIO delegate;
    private final CommitLock.Factory locks;
    private final String database;
    private final String table;

    public LockedCommitsFileIO(FileIO delegate, CommitLock.Factory locks, String database, String table) {
        this.delegate = delegate;
        this.locks = locks;
        this.database = database;
        this.table = table;
    }

    @Override
    public boolean createIfAbsent(Path path, byte[] content) throws IOException {
        try (CommitLock lock = locks.open()) {
            return lock.runWithLock(database, table, () -> delegate.createIfAbsentUnderLock(path, content));
        }
    }

    @Override
    public boolean createIfAbsentUnderLock(Path path, byte[] content) throws IOException {
        return createIfAbsent(path, content);
    }

    @Override
    public SeekableInputStream newInputStream(Path path) throws IOException {
        return delegate.newInputStream(path);
    }

    @Override
    public PositionOutputStream newOutputStream(Path path, boolean overwrite) throws IOException {
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
    public void overwrite(Path path, byte[] content) throws IOException {
        delegate.overwrite(path, content);
    }

    @Override
    public byte[] readAllBytes(Path path) throws IOException {
        return delegate.readAllBytes(path);
    }

    @Override
    public long size(Path path) throws IOException {
        return delegate.size(path);
    }
}
