package dev.streamhouse.storage.catalog.jdbc;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Properties;

/**
 * Up to {@code client-pool-size} open connections to the JDBC metastore, opened on demand and reused. A
 * connection that fails a statement and is no longer valid is closed instead of returned, and the action is
 * tried once more on a new one.
 */
final class JdbcConnections implements AutoCloseable {
    /** One unit of work on a connection. */
    @FunctionalInterface
    interface SqlAction<T> {
        T run(Connection connection) throws SQLException;
    }

    private final String uri;
    private final Properties properties;
    private final int maxIdle;
    private final Deque<Connection> idle = new ArrayDeque<>();
    private boolean closed;

    JdbcConnections(String uri, Properties properties, int maxIdle) {
        this.uri = uri;
        this.properties = properties;
        this.maxIdle = Math.max(1, maxIdle);
    }

    <T> T run(SqlAction<T> action) throws SQLException {
        Connection connection = borrow();
        try {
            T result = action.run(connection);
            giveBack(connection);
            return result;
        } catch (SQLException e) {
            if (isValid(connection)) {
                giveBack(connection);
                throw e;
            }
            closeQuietly(connection);
            Connection fresh = open();
            try {
                T result = action.run(fresh);
                giveBack(fresh);
                return result;
            } catch (SQLException | RuntimeException retryFailure) {
                closeQuietly(fresh);
                throw retryFailure;
            }
        } catch (RuntimeException e) {
            closeQuietly(connection);
            throw e;
        }
    }

    private synchronized Connection pollIdle() {
        if (closed) {
            throw new IllegalStateException("The JDBC metastore connections of " + uri + " are closed");
        }
        return idle.pollFirst();
    }

    private Connection borrow() throws SQLException {
        Connection connection = pollIdle();
        return connection != null ? connection : open();
    }

    private Connection open() throws SQLException {
        return DriverManager.getConnection(uri, properties);
    }

    private void giveBack(Connection connection) {
        boolean kept = false;
        synchronized (this) {
            if (!closed && idle.size() < maxIdle) {
                idle.addFirst(connection);
                kept = true;
            }
        }
        if (!kept) {
            closeQuietly(connection);
        }
    }

    private static boolean isValid(Connection connection) {
        try {
            return connection.isValid(5);
        } catch (SQLException e) {
            return false;
        }
    }

    private static void closeQuietly(Connection connection) {
        try {
            connection.close();
        } catch (SQLException ignored) {
            // closing a broken connection: nothing else to do
        }
    }

    @Override
    public void close() {
        Deque<Connection> toClose;
        synchronized (this) {
            closed = true;
            toClose = new ArrayDeque<>(idle);
            idle.clear();
        }
        toClose.forEach(JdbcConnections::closeQuietly);
    }
}
