package dev.streamhouse.storage.fs;

import java.io.IOException;
import java.util.List;

/** A file IO that passes every call to another; subclasses override what they change. */
public abstract class ForwardingFileIO implements FileIO {
    private static final long serialVersionUID = 1L;

    protected final FileIO delegate;

    protected ForwardingFileIO(FileIO delegate) {
        this.delegate = delegate;
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
    public boolean createIfAbsent(Path path, byte[] content) throws IOException {
        return delegate.createIfAbsent(path, content);
    }

    @Override
    public boolean createIfAbsentUnderLock(Path path, byte[] content) throws IOException {
        return delegate.createIfAbsentUnderLock(path, content);
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
