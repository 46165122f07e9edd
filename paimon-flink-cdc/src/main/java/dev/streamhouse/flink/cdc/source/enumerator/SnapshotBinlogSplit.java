package dev.streamhouse.flink.cdc.source.enumerator;

import dev.streamhouse.flink.cdc.debezium.BinlogStart;
import dev.streamhouse.flink.cdc.debezium.OffsetJson;
import dev.streamhouse.flink.cdc.mysql.BinlogStartOffset;
import dev.streamhouse.flink.cdc.mysql.MySqlConnections;
import dev.streamhouse.flink.cdc.mysql.ServerBinlog;
import dev.streamhouse.flink.cdc.mysql.ServerFlavor;
import dev.streamhouse.flink.cdc.source.MySqlSourceConfig;
import dev.streamhouse.flink.cdc.source.split.MySqlBinlogSplit;
import dev.streamhouse.flink.cdc.source.split.SnapshotWindow;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * The binlog split that follows a chunked snapshot: from the position read before the captured
 * tables' definitions, with those definitions as its schema history ({@link BinlogStart}), and with
 * the snapshot window by which the reader skips changes already in a chunk.
 */
final class SnapshotBinlogSplit {

    private SnapshotBinlogSplit() {}

    static MySqlBinlogSplit after(MySqlSourceConfig config, SnapshotWindow window, BinlogStart start) {
        if (start == null) {
            throw new IllegalStateException("The MySQL CDC snapshot of " + config.address() + " was restored from a "
                    + "checkpoint of an earlier build, which did not record the tables' definitions for the binlog: "
                    + "restart the job without its state");
        }
        return new MySqlBinlogSplit(start.offsetJson(), start.history(), false, 0, window);
    }

    /** No table to snapshot: the binlog from its current end. */
    static MySqlBinlogSplit withoutTables(MySqlSourceConfig config) throws SQLException {
        try (Connection connection = MySqlConnections.open(config)) {
            BinlogStartOffset offset = ServerBinlog.withGtidPosition(connection, ServerFlavor.detect(connection),
                    ServerBinlog.current(connection, config.address()), config.address());
            return new MySqlBinlogSplit(OffsetJson.toJson(offset.toDebeziumOffset()), List.of(), false, 0, null);
        }
    }
}
