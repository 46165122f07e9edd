package dev.streamhouse.hive;

import dev.streamhouse.storage.catalog.lock.CommitLock;
import dev.streamhouse.storage.fs.CommitLockUnavailableException;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.time.Duration;

import org.apache.hadoop.hive.metastore.IMetaStoreClient;
import org.apache.hadoop.hive.metastore.LockComponentBuilder;
import org.apache.hadoop.hive.metastore.LockRequestBuilder;
import org.apache.hadoop.hive.metastore.api.DataOperationType;
import org.apache.hadoop.hive.metastore.api.LockRequest;
import org.apache.hadoop.hive.metastore.api.LockResponse;
import org.apache.hadoop.hive.metastore.api.LockState;
import org.apache.thrift.TException;

/**
 * A table's commit lock in a Hive metastore ({@code lock.enabled}): an exclusive table lock through the
 * metastore's lock API, the lock Apache Paimon's Hive catalog takes, so committers of both stores exclude
 * each other. A request the metastore queues is checked again after a pause that doubles from 50 ms up to
 * {@code lock-check-max-sleep}, until {@code lock-acquire-timeout}; the lock is released when the action
 * ends, whatever its outcome.
 */
final class HiveCommitLock implements CommitLock {
    private static final long FIRST_PAUSE_MILLIS = 50;

    private final Factory factory;
    private IMetaStoreClient client;

    private HiveCommitLock(Factory factory) {
        this.factory = factory;
    }

    @Override
    public <T> T runWithLock(String database, String table, LockedAction<T> action) throws IOException {
        long lockId = acquire(database, table);
        try {
            return action.run();
        } finally {
            release(lockId, database + "." + table);
        }
    }

    private long acquire(String database, String table) throws IOException {
        String name = database + "." + table;
        long deadline = System.nanoTime() + factory.acquireTimeout.toNanos();
        long pause = FIRST_PAUSE_MILLIS;
        try {
            LockResponse response = client().lock(request(database, table));
            while (response.getState() == LockState.WAITING) {
                if (System.nanoTime() > deadline) {
                    client().unlock(response.getLockid());
                    throw new CommitLockUnavailableException("Cannot take the commit lock of table '" + name + "' in "
                            + factory.settings.where() + " within 'lock-acquire-timeout' (" + factory.acquireTimeout
                            + "): another committer holds it. Find the holder with SHOW LOCKS in Hive; if none is "
                            + "running, the metastore drops its lock after its transaction timeout; otherwise raise "
                            + "'lock-acquire-timeout'");
                }
                Thread.sleep(pause);
                pause = Math.min(pause * 2, Math.max(FIRST_PAUSE_MILLIS, factory.maxSleep.toMillis()));
                response = client().checkLock(response.getLockid());
            }
            if (response.getState() != LockState.ACQUIRED) {
                throw new CommitLockUnavailableException("Cannot take the commit lock of table '" + name + "' in "
                        + factory.settings.where() + ": the metastore answered " + response.getState());
            }
            return response.getLockid();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("Interrupted while waiting for the commit lock of table '" + name + "'");
        } catch (TException e) {
            closeClient();
            throw new CommitLockUnavailableException("Cannot take the commit lock of table '" + name + "' in " + factory.settings.where()
                    + ": " + HiveClients.rootMessage(e), e);
        }
    }

    private void release(long lockId, String name) throws IOException {
        try {
            client().unlock(lockId);
        } catch (TException e) {
            closeClient();
            throw new IOException("Cannot release the commit lock of table '" + name + "' in "
                    + factory.settings.where() + " (the metastore drops it after its transaction timeout): "
                    + HiveClients.rootMessage(e), e);
        }
    }

    private static LockRequest request(String database, String table) {
        return new LockRequestBuilder()
                .addLockComponent(new LockComponentBuilder().setExclusive().setDbName(database).setTableName(table)
                        .setOperationType(DataOperationType.NO_TXN).build())
                .setUser(System.getProperty("user.name"))   // the builder adds this host's name
                .build();
    }

    private IMetaStoreClient client() throws CommitLockUnavailableException {
        if (client == null) {
            try {
                client = HiveClients.connect(factory.settings, "take a commit lock");
            } catch (RuntimeException e) {
                throw new CommitLockUnavailableException(e.getMessage(), e);
            }
        }
        return client;
    }

    private void closeClient() {
        if (client != null) {
            client.close();
            client = null;
        }
    }

    @Override
    public void close() {
        closeClient();
    }

    /** Opens the locks of one metastore; travels with the tables' file IO to the tasks that commit. */
    static final class Factory implements CommitLock.Factory {
        private static final long serialVersionUID = 1L;

        private final HiveClients.HiveSettings settings;
        private final Duration acquireTimeout;
        private final Duration maxSleep;

        Factory(HiveClients.HiveSettings settings, Duration acquireTimeout, Duration maxSleep) {
            this.settings = settings;
            this.acquireTimeout = acquireTimeout;
            this.maxSleep = maxSleep;
        }

        @Override
        public CommitLock open() {
            return new HiveCommitLock(this);
        }
    }
}
