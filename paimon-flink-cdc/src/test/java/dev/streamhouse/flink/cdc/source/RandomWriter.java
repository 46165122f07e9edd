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
import java.util.function.BiFunction;

/**
 * Writes random changes to a table {@code (<key> PRIMARY KEY, v INT, w INT)} on its own thread until
 * stopped: updates, deletes, inserts (of new and of deleted keys), key changes and two-statement
 * transactions. Keys are SQL literals made from a number up to {@code maxKey} (and the random
 * source, for variants such as letter case).
 */
final class RandomWriter implements AutoCloseable {

    private final MariaDbExtension server;
    private final String table;
    private final String keyColumn;
    private final int maxKey;
    private final BiFunction<Integer, SplittableRandom, String> keyLiteral;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicLong statements = new AtomicLong();
    private final Thread thread;
    private volatile Throwable failure;

    /** Integer keys in column {@code id}. */
    RandomWriter(MariaDbExtension server, String table, int maxKey, long seed) {
        this(server, table, "id", maxKey, (n, random) -> Integer.toString(n), seed);
    }

    RandomWriter(MariaDbExtension server, String table, String keyColumn, int maxKey,
            BiFunction<Integer, SplittableRandom, String> keyLiteral, long seed) {
        this.server = server;
        this.table = table;
        this.keyColumn = keyColumn;
        this.maxKey = maxKey;
        this.keyLiteral = keyLiteral;
        this.thread = new Thread(() -> run(seed), "random-writer-" + table);
        this.thread.start();
    }

    private void run(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        try (Connection c = server.rootConnection(); Statement s = c.createStatement()) {
            while (running.get()) {
                writeOnce(s, random);
                statements.incrementAndGet();
                Thread.sleep(1);
            }
        } catch (Throwable t) {
            failure = t;
        }
    }

    /** One random change (statements touching no row are fine). */
    private void writeOnce(Statement s, SplittableRandom random) throws SQLException {
        String key = key(random);
        String where = " WHERE " + keyColumn + " = " + key;
        int op = random.nextInt(100);
        if (op < 40) {
            s.execute("UPDATE " + table + " SET v = v + 1, w = " + random.nextInt(1000) + where);
        } else if (op < 60) {
            s.execute("DELETE FROM " + table + where);
        } else if (op < 85) {
            s.execute("INSERT IGNORE INTO " + table + " VALUES (" + key + ", " + random.nextInt(1000) + ", 0)");
        } else if (op < 93) {
            s.execute("UPDATE IGNORE " + table + " SET " + keyColumn + " = " + key(random) + where);
        } else {
            s.execute("BEGIN");
            s.execute("UPDATE " + table + " SET w = w + 1" + where);
            s.execute("DELETE FROM " + table + " WHERE " + keyColumn + " = " + key(random));
            s.execute("COMMIT");
        }
    }

    private String key(SplittableRandom random) {
        return keyLiteral.apply(1 + random.nextInt(maxKey), random);
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

    /** The table's rows as {@link ChangeLines} writes them, by key. */
    static Map<String, String> rows(MariaDbExtension server, String table) throws SQLException {
        Map<String, String> rows = new HashMap<>();
        try (Connection c = server.rootConnection(); Statement s = c.createStatement();
                var rs = s.executeQuery("SELECT * FROM " + table)) {
            while (rs.next()) {
                rows.put(rs.getString(1), rs.getString(1) + "," + rs.getLong(2) + "," + rs.getLong(3));
            }
        }
        return rows;
    }
}
