package dev.streamhouse.flink.cdc.source.enumerator;

import dev.streamhouse.flink.cdc.debezium.OffsetJson;
import dev.streamhouse.flink.cdc.mysql.BinlogOffset;
import dev.streamhouse.flink.cdc.mysql.BinlogPosition;
import dev.streamhouse.flink.cdc.mysql.BinlogPositions;
import dev.streamhouse.flink.cdc.mysql.MySqlConnections;
import dev.streamhouse.flink.cdc.mysql.ServerFlavor;
import dev.streamhouse.flink.cdc.source.MySqlSourceConfig;
import dev.streamhouse.flink.cdc.source.split.MySqlBinlogSplit;
import dev.streamhouse.flink.cdc.source.split.SnapshotWindow;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * The binlog split that follows a chunked snapshot: from the lowest high watermark of its chunks
 * (with MariaDB's GTID position there, which its connector streams by), without schema history (the
 * connector reads the tables' schemas when it starts; the reader checks them against the
 * snapshot's), and with the snapshot window by which the reader skips changes already in a chunk.
 */
final class SnapshotBinlogSplit {

    private SnapshotBinlogSplit() {}

    static MySqlBinlogSplit after(MySqlSourceConfig config, SnapshotWindow window) throws SQLException {
        return at(config, window.lowestHighWatermark(), window);
    }

    /** No table to snapshot: the binlog from its current end. */
    static MySqlBinlogSplit withoutTables(MySqlSourceConfig config) throws SQLException {
        try (Connection connection = MySqlConnections.open(config)) {
            return at(config, BinlogPositions.current(connection, config.address()).toPosition(), null);
        }
    }

    private static MySqlBinlogSplit at(MySqlSourceConfig config, BinlogPosition position, SnapshotWindow window)
            throws SQLException {
        try (Connection connection = MySqlConnections.open(config)) {
            BinlogOffset offset = BinlogPositions.withGtidPosition(connection, ServerFlavor.detect(connection),
                    new BinlogOffset(position.file(), position.position(), null), config.address());
            return new MySqlBinlogSplit(OffsetJson.toJson(offset.toDebeziumOffset()), List.of(), false, 0, window);
        }
    }
}
