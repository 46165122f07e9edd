package dev.streamhouse.storage.snapshot;

import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.fs.FileStatus;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.fs.PositionOutputStream;
import dev.streamhouse.storage.fs.SeekableInputStream;

import java.io.IOException;
import java.util.List;

/** Delegates to a real FileIO but fails every {@link #overwrite} (as hint writes on a flaky store). */
final class FlakyHintFileIO implements FileIO {
    private static final long serialVersionUID = 1L;
    private final FileIO delegate;

    FlakyHintFileIO(FileIO delegate) {
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
    public void overwrite(Path path, byte[] content) throws IOException {
        throw new IOException("injected failure overwriting " + path);
    }
}
