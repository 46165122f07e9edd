package dev.streamhouse.storage.catalog.lock;

import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.fs.ForwardingFileIO;
import dev.streamhouse.storage.fs.Path;

import java.io.IOException;

/**
 * The file IO of one table under a catalog's commit lock: every {@link #createIfAbsent} (the publishing of
 * a snapshot, schema, tag, ...) runs while holding the table's {@link CommitLock}, with the delegate's
 * {@link FileIO#createIfAbsentUnderLock}; everything else goes straight to the delegate.
 */
public final class LockedCommitsFileIO extends ForwardingFileIO {
    private static final long serialVersionUID = 1L;

    private final CommitLock.Factory locks;
    private final String database;
    private final String table;

    public LockedCommitsFileIO(FileIO delegate, CommitLock.Factory locks, String database, String table) {
        super(delegate);
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
}
