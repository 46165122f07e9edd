package dev.streamhouse.flink.cdc.source;

import dev.streamhouse.flink.cdc.testing.MariaDbExtension;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Writes random changes to a table {@code (id INT PRIMARY KEY, v INT, w INT)} on its own thread
 * until stopped: updates, deletes, inserts (of new and of deleted keys), key changes and
 * two-statement transactions, over keys from 1 to {@code maxKey}.
 */
final class RandomWriter implements AutoCloseable {

    private final MariaDbExtension server;
    private final String table;
    private final int maxKey;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicLong statements = new AtomicLong();
    private final Thread thread;
    private volatile Throwable failure;

    RandomWriter(MariaDbExtension server, String table, int maxKey, long seed) {
        this.server = server;
        this.table = table;
        this.maxKey = maxKey;
        this.thread = new Thread(() -> run(seed), "random-writer-" + table);
        this.thread.start();
    }

    private void run(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        try (Connection c = server.rootConnection(); Statement s = c.createStatement()) {
            while (running.get()) {
                writeOnce(s, random);
                Thread.sleep(1);
            }
        } catch (Throwable t) {
            failure = t;
        }
    }

    /** One random change (statements touching no row are fine). */
    static void writeOnce(Statement s, SplittableRandom random, String table, int maxKey) throws SQLException {
        int id = 1 + random.nextInt(maxKey);
        int op = random.nextInt(100);
        if (op < 40) {
            s.execute("UPDATE " + table + " SET v = v + 1, w = " + random.nextInt(1000) + " WHERE id = " + id);
        } else if (op < 60) {
            s.execute("DELETE FROM " + table + " WHERE id = " + id);
        } else if (op < 85) {
            s.execute("INSERT IGNORE INTO " + table + " VALUES (" + id + ", " + random.nextInt(1000) + ", 0)");
        } else if (op < 93) {
            s.execute("UPDATE IGNORE " + table + " SET id = " + (1 + random.nextInt(maxKey)) + " WHERE id = " + id);
        } else {
            s.execute("BEGIN");
            s.execute("UPDATE " + table + " SET w = w + 1 WHERE id = " + id);
            s.execute("DELETE FROM " + table + " WHERE id = " + (1 + random.nextInt(maxKey)));
            s.execute("COMMIT");
        }
    }

    private void writeOnce(Statement s, SplittableRandom random) throws SQLException {
        writeOnce(s, random, table, maxKey);
        statements.incrementAndGet();
    }

    long statements() {
        return statements.get();
    }

    @Override
    public void close() throws Exception {
        running.set(false);
        thread.join();
        if (failure != null) {
            throw new IllegalStateException("The random writer failed", failure);
        }
    }

    /** The table's rows as {@link ChangeLines} writes them, by id. */
    static Map<Long, String> rows(MariaDbExtension server, String table) throws SQLException {
        Map<Long, String> rows = new HashMap<>();
        try (Connection c = server.rootConnection(); Statement s = c.createStatement();
                var rs = s.executeQuery("SELECT id, v, w FROM " + table)) {
            while (rs.next()) {
                rows.put(rs.getLong(1), rs.getLong(1) + "," + rs.getLong(2) + "," + rs.getLong(3));
            }
        }
        return rows;
    }
}
