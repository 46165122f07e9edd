package dev.streamhouse.storage.catalog.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.streamhouse.storage.catalog.lock.CommitLock;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Properties;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The jdbc metastore's commit lock on a real SQLite file: Paimon's row, waiting, timing out, taking over. */
class JdbcCommitLockTest {
    @TempDir
    Path dir;

    private String uri;

    @BeforeEach
    void createLockTable() throws Exception {
        uri = "jdbc:sqlite:" + dir.resolve("locks.sqlite");
        execute(JdbcCommitLock.createTableStatement(255));
    }

    private CommitLock.Factory factory(Duration timeout) {
        return new JdbcCommitLock.Factory(uri, new Properties(), "lake", "the test metastore",
                JdbcCommitLock.Dialect.SQLITE, timeout, Duration.ofMillis(100), 255);
    }

    @Test
    void theLockIsPaimonsRowWhileHeldAndGoneAfter() throws Exception {
        try (CommitLock lock = factory(Duration.ofSeconds(10)).open()) {
            String seen = lock.runWithLock("db", "t", () -> query("SELECT lock_id || '|' || expire_time_seconds FROM "
                    + JdbcCommitLock.TABLE));
            assertThat(seen).isEqualTo("lake.db.t|10");
        }
        assertThat(query("SELECT COUNT(*) FROM " + JdbcCommitLock.TABLE)).isEqualTo("0");
    }

    @Test
    void aHeldLockMakesOthersWaitAndTimeOutNamingTheRow() throws Exception {
        execute("INSERT INTO " + JdbcCommitLock.TABLE + " (lock_id, expire_time_seconds) VALUES ('lake.db.t', 3600)");
        try (CommitLock lock = factory(Duration.ofMillis(300)).open()) {
            assertThatThrownBy(() -> lock.runWithLock("db", "t", () -> "never"))
                    .hasMessageContaining("Cannot take the commit lock of table 'db.t' in the test metastore")
                    .hasMessageContaining("row 'lake.db.t' of paimon_distributed_locks")
                    .hasMessageContaining("'lock-acquire-timeout'");
            // another table's lock is free
            assertThat(lock.runWithLock("db", "other", () -> "ran")).isEqualTo("ran");
        }
    }

    @Test
    void aLockOlderThanItsExpiryIsTakenOver() throws Exception {
        execute("INSERT INTO " + JdbcCommitLock.TABLE + " (lock_id, acquired_at, expire_time_seconds) "
                + "VALUES ('lake.db.t', datetime('now', '-1 hour'), 60)");
        try (CommitLock lock = factory(Duration.ofMillis(300)).open()) {
            assertThat(lock.runWithLock("db", "t", () -> "ran")).isEqualTo("ran");
        }
    }

    private void execute(String sql) throws Exception {
        try (Connection c = DriverManager.getConnection(uri); Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    private String query(String sql) {
        try (Connection c = DriverManager.getConnection(uri); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery(sql)) {
            return rs.next() ? rs.getString(1) : null;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
