package dev.streamhouse.storage.catalog.jdbc;

import dev.streamhouse.storage.catalog.lock.CommitLock;

import dev.streamhouse.storage.fs.CommitLockUnavailableException;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Locale;
import java.util.Properties;

/**
 * Apache Paimon's JDBC commit lock: holding the lock of a table is owning the row
 * {@code (catalog-key.database.table)} of {@code paimon_distributed_locks}. Taking it inserts the row (the
 * primary key lets one committer in), after deleting a row older than its own {@code expire_time_seconds}
 * (a committer that died holding it); waiting retries with a pause doubling from 50 ms up to
 * {@code lock-check-max-sleep}, until {@code lock-acquire-timeout}; releasing deletes the row. Paimon's
 * committers on the same catalog take the same rows, so the two stores exclude each other too.
 */
final class JdbcCommitLock implements CommitLock {
    static final String TABLE = "paimon_distributed_locks";

    /** Everything a task needs to open the lock (the connection properties may hold a password). */
    static final class Factory implements CommitLock.Factory {
        private static final long serialVersionUID = 1L;

        private final String uri;
        private final Properties properties;
        private final String catalogKey;
        private final String where;
        private final Dialect dialect;
        private final Duration acquireTimeout;
        private final Duration maxSleep;
        private final int maxKeyLength;

        Factory(String uri, Properties properties, String catalogKey, String where, Dialect dialect,
                Duration acquireTimeout, Duration maxSleep, int maxKeyLength) {
            this.uri = uri;
            this.properties = properties;
            this.catalogKey = catalogKey;
            this.where = where;
            this.dialect = dialect;
            this.acquireTimeout = acquireTimeout;
            this.maxSleep = maxSleep;
            this.maxKeyLength = maxKeyLength;
        }

        @Override
        public CommitLock open() {
            return new JdbcCommitLock(this);
        }
    }

    /** How a database says "this row is older than its expiry". */
    enum Dialect {
        MYSQL("TIMESTAMPDIFF(SECOND, acquired_at, NOW()) > expire_time_seconds"),
        POSTGRESQL("EXTRACT(EPOCH FROM AGE(NOW(), acquired_at)) > expire_time_seconds"),
        SQLITE("strftime('%s', 'now') - strftime('%s', acquired_at) > expire_time_seconds");

        final String expired;

        Dialect(String expired) {
            this.expired = expired;
        }

        /** The dialect of a JDBC URL, or null if the lock does not know the database. */
        static Dialect of(String uri) {
            String lower = uri.toLowerCase(Locale.ROOT);
            if (lower.startsWith("jdbc:mysql:") || lower.startsWith("jdbc:mariadb:")) {
                return MYSQL;
            }
            if (lower.startsWith("jdbc:postgresql:")) {
                return POSTGRESQL;
            }
            return lower.startsWith("jdbc:sqlite:") ? SQLITE : null;
        }
    }

    static String createTableStatement(int maxKeyLength) {
        return "CREATE TABLE " + TABLE + "(lock_id VARCHAR(" + maxKeyLength + ") NOT NULL, "
                + "acquired_at TIMESTAMP DEFAULT CURRENT_TIMESTAMP NOT NULL, "
                + "expire_time_seconds BIGINT DEFAULT 0 NOT NULL, PRIMARY KEY (lock_id))";
    }

    private static final long FIRST_PAUSE_MILLIS = 50;

    private final Factory factory;
    private Connection connection;

    private JdbcCommitLock(Factory factory) {
        this.factory = factory;
    }

    @Override
    public <T> T runWithLock(String database, String table, LockedAction<T> action) throws IOException {
        String lockId = factory.catalogKey + "." + database + "." + table;
        if (lockId.length() > factory.maxKeyLength) {
            throw new CommitLockUnavailableException("Cannot lock table '" + database + "." + table + "' in " + factory.where
                    + ": its lock key '" + lockId + "' is longer than 'lock-key-max-length' ("
                    + factory.maxKeyLength + ")");
        }
        acquire(lockId, database + "." + table);
        try {
            return action.run();
        } finally {
            release(lockId);
        }
    }

    private void acquire(String lockId, String tableName) throws IOException {
        long deadline = System.nanoTime() + factory.acquireTimeout.toNanos();
        long pause = FIRST_PAUSE_MILLIS;
        while (true) {
            if (tryAcquire(lockId)) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new CommitLockUnavailableException("Cannot take the commit lock of table '" + tableName + "' in " + factory.where
                        + " within 'lock-acquire-timeout' (" + factory.acquireTimeout + "): another committer "
                        + "holds it (row '" + lockId + "' of " + TABLE + "). If no committer is running, delete "
                        + "that row; otherwise raise 'lock-acquire-timeout'");
            }
            try {
                Thread.sleep(pause);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("Interrupted while waiting for the commit lock of " + tableName);
            }
            pause = Math.min(pause * 2, Math.max(FIRST_PAUSE_MILLIS, factory.maxSleep.toMillis()));
        }
    }

    private boolean tryAcquire(String lockId) throws IOException {
        try {
            Connection c = connection();
            try (PreparedStatement expired = c.prepareStatement(
                    "DELETE FROM " + TABLE + " WHERE lock_id = ? AND " + factory.dialect.expired)) {
                expired.setString(1, lockId);
                expired.executeUpdate();
            }
            try (PreparedStatement insert = c.prepareStatement(
                    "INSERT INTO " + TABLE + " (lock_id, expire_time_seconds) VALUES (?, ?)")) {
                insert.setString(1, lockId);
                insert.setLong(2, factory.acquireTimeout.toSeconds());
                return insert.executeUpdate() == 1;
            } catch (SQLException held) {
                return false;   // the key exists: another committer holds the lock
            }
        } catch (SQLException e) {
            throw new CommitLockUnavailableException("Cannot take a commit lock in " + factory.where + ": " + e.getMessage(), e);
        }
    }

    private void release(String lockId) throws IOException {
        try (PreparedStatement delete = connection().prepareStatement("DELETE FROM " + TABLE + " WHERE lock_id = ?")) {
            delete.setString(1, lockId);
            delete.executeUpdate();
        } catch (SQLException e) {
            throw new IOException("Cannot release the commit lock '" + lockId + "' in " + factory.where + " (it expires "
                    + "after 'lock-acquire-timeout'): " + e.getMessage(), e);
        }
    }

    private Connection connection() throws SQLException {
        if (connection == null) {
            connection = DriverManager.getConnection(factory.uri, factory.properties);
        }
        return connection;
    }

    @Override
    public void close() {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException ignored) {
                // the lock's row is already deleted; nothing is held
            }
            connection = null;
        }
    }
}
