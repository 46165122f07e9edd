package dev.streamhouse.flink.cdc.mysql.snapshot;

import dev.streamhouse.flink.cdc.event.CdcTableId;
import dev.streamhouse.flink.cdc.mysql.BinlogPosition;
import dev.streamhouse.flink.cdc.mysql.CapturedTable;
import dev.streamhouse.flink.cdc.mysql.ServerBinlog;
import dev.streamhouse.flink.cdc.mysql.ServerFlavor;
import dev.streamhouse.flink.cdc.source.MySqlSourceConfig;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads chunks of a table lock-free, each as of its high watermark (the DBLog / Flink CDC watermark
 * idea). Per chunk, on one JDBC connection:
 *
 * <ol>
 *   <li>{@code START TRANSACTION WITH CONSISTENT SNAPSHOT} fixes what the SELECT will see. The low
 *       watermark is the binlog position of that snapshot: on MariaDB exactly so
 *       ({@code Binlog_snapshot_file/position}: every transaction before it is visible, none after);
 *       on MySQL the binlog end read just before the transaction starts.
 *   <li>The high watermark is the binlog end read right after; the snapshot lies between the two.
 *   <li>The SELECT reads the chunk's key range in that snapshot; the transaction ends.
 *   <li>If the watermarks differ, the row changes of the table between them are read from the
 *       binlog and applied to the chunk's key range ({@link ChunkBackfill}).
 * </ol>
 *
 * The rows returned are the chunk as of the high watermark: every change before it is in them,
 * none after. One reader per source reader; not thread-safe.
 *
 * <p>On MySQL the low watermark is exact only if no transaction is between its binlog write and its
 * commit when the snapshot starts (one that is would be neither in the rows nor after the low
 * watermark); MySQL has no consistent-snapshot binlog position to close that gap without locks, as
 * MariaDB has. Only MariaDB is tested here.
 */
public final class ChunkReader implements AutoCloseable {

    private static volatile ChunkReadHook testHook;

    private final MySqlSourceConfig config;
    private final BinlogWindowReader windows;
    private final Map<CdcTableId, KeyOrder> keyOrders = new HashMap<>();
    private final CollationWeights weights = new ServerCollationWeights(this::connection);
    private Connection connection;
    private ServerFlavor flavor;

    public ChunkReader(MySqlSourceConfig config, int serverId) {
        this.config = config;
        this.windows = new BinlogWindowReader(config, serverId);
    }

    /**
     * Test seam: called between the watermarks of every chunk read in this JVM (a change made there
     * falls between them); null in production.
     */
    public static void setTestHook(ChunkReadHook hook) {
        testHook = hook;
    }

    /** Reads one chunk of {@code table}. */
    public ChunkResult read(CapturedTable table, ChunkRange range) throws SQLException, IOException {
        Connection c = connection();
        KeyOrder order = keyOrders.computeIfAbsent(table.id(), id -> KeyOrder.of(table));
        BinlogPosition low;
        BinlogPosition high;
        List<Object[]> rows = new ArrayList<>();
        try (Statement s = c.createStatement()) {
            BinlogPosition before = flavor == ServerFlavor.MYSQL ? binlogEnd(c) : null;
            s.execute("START TRANSACTION WITH CONSISTENT SNAPSHOT");
            try {
                low = flavor == ServerFlavor.MYSQL ? before : snapshotPosition(s);
                ChunkReadHook hook = testHook;
                if (hook != null) {
                    hook.betweenWatermarks(table.id(), range);
                }
                high = binlogEnd(c);
                JdbcValues.ColumnReader[] readers = JdbcValues.readers(table.schema());
                try (PreparedStatement select = ChunkQuery.select(table.schema(), range).prepare(c);
                        ResultSet rs = select.executeQuery()) {
                    while (rs.next()) {
                        Object[] row = new Object[readers.length];
                        for (int i = 0; i < row.length; i++) {
                            row[i] = readers[i].read(rs, i + 1);
                        }
                        rows.add(row);
                    }
                }
            } finally {
                s.execute("COMMIT");
            }
        }
        if (!low.isBefore(high)) {
            return new ChunkResult(rows, high, 0);
        }
        List<RowChange> changes = windows.read(table, low, high);
        if (changes.isEmpty()) {
            return new ChunkResult(rows, high, 0);
        }
        return new ChunkResult(ChunkBackfill.apply(rows, changes, range, order, weights), high, changes.size());
    }

    private Connection connection() throws SQLException {
        if (connection == null) {
            connection = SnapshotConnections.open(config);
            flavor = ServerFlavor.detect(connection);
        }
        return connection;
    }

    private BinlogPosition binlogEnd(Connection c) throws SQLException {
        return ServerBinlog.current(c, config.address()).toPosition();
    }

    /** MariaDB's binlog position of the transaction's consistent snapshot. */
    private BinlogPosition snapshotPosition(Statement s) throws SQLException {
        String file = null;
        long position = -1;
        try (ResultSet rs = s.executeQuery("SHOW STATUS LIKE 'binlog_snapshot_%'")) {
            while (rs.next()) {
                if ("Binlog_snapshot_file".equalsIgnoreCase(rs.getString(1))) {
                    file = rs.getString(2);
                } else if ("Binlog_snapshot_position".equalsIgnoreCase(rs.getString(1))) {
                    position = Long.parseLong(rs.getString(2));
                }
            }
        }
        if (file == null || file.isEmpty() || position < 0) {
            throw new IllegalStateException("MariaDB server " + config.address() + " reports no binlog position for a "
                    + "consistent snapshot (Binlog_snapshot_file/position); is the binlog on (--log-bin)?");
        }
        return new BinlogPosition(file, position);
    }

    @Override
    public void close() throws SQLException {
        if (connection != null) {
            connection.close();
            connection = null;
        }
    }

    /** A chunk's rows (in key order) as of its high watermark, and how many binlog changes were applied. */
    public record ChunkResult(List<Object[]> rows, BinlogPosition highWatermark, int changesApplied) {}

    /** See {@link #setTestHook}. */
    @FunctionalInterface
    public interface ChunkReadHook {
        void betweenWatermarks(CdcTableId table, ChunkRange range);
    }
}
