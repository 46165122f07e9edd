package dev.streamhouse.storage.catalog.lock;

import java.io.IOException;
import java.io.Serializable;

/**
 * A lock per table that every committer of the table takes around publishing a file (a snapshot, a
 * schema): the catalog's {@code lock.enabled}, for stores whose create-if-absent is not atomic.
 */
public interface CommitLock extends AutoCloseable {

    /** Runs {@code action} while holding the lock of {@code database.table}. */
    <T> T runWithLock(String database, String table, LockedAction<T> action) throws IOException;

    @Override
    void close();

    /** What runs under the lock. */
    @FunctionalInterface
    interface LockedAction<T> {
        T run() throws IOException;
    }

    /** Opens locks; travels with a table's file IO to the tasks that commit. */
    interface Factory extends Serializable {
        CommitLock open();
    }
}
