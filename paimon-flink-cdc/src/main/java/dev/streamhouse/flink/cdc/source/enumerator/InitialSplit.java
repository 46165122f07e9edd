package dev.streamhouse.flink.cdc.source.enumerator;

import dev.streamhouse.flink.cdc.debezium.OffsetJson;
import dev.streamhouse.flink.cdc.mysql.BinlogStartOffset;
import dev.streamhouse.flink.cdc.mysql.ServerBinlog;
import dev.streamhouse.flink.cdc.mysql.MySqlConnections;
import dev.streamhouse.flink.cdc.mysql.ServerChecks;
import dev.streamhouse.flink.cdc.mysql.ServerFlavor;
import dev.streamhouse.flink.cdc.source.StartupMode;
import dev.streamhouse.flink.cdc.source.MySqlSourceConfig;
import dev.streamhouse.flink.cdc.source.StartupOptions;
import dev.streamhouse.flink.cdc.source.split.MySqlBinlogSplit;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * The split a new source starts with, after checking the server (binlog settings, privileges).
 * Every start but {@code initial} is turned into a concrete binlog offset here, once, so that a
 * checkpoint taken before the first record still resumes from the same place.
 */
final class InitialSplit {

    private InitialSplit() {}

    static MySqlBinlogSplit create(MySqlSourceConfig config) {
        try (Connection connection = MySqlConnections.open(config)) {
            ServerChecks.check(connection, config);
            StartupOptions startup = config.startup();
            String address = config.address();
            BinlogStartOffset offset = switch (startup.mode()) {
                case INITIAL -> null;
                case LATEST_OFFSET -> ServerBinlog.current(connection, address);
                case EARLIEST_OFFSET, TIMESTAMP -> ServerBinlog.earliest(connection, address);
                case SPECIFIC_OFFSET -> startup.gtidSet() != null
                        ? new BinlogStartOffset(ServerBinlog.earliest(connection, address).file(),
                                ServerBinlog.FILE_START, startup.gtidSet())
                        : new BinlogStartOffset(startup.binlogFile(), startup.binlogPosition(), null);
            };
            if (offset == null) {
                return new MySqlBinlogSplit(null, List.of(), true, 0);
            }
            offset = ServerBinlog.withGtidPosition(connection, ServerFlavor.detect(connection), offset, address);
            return fromOffset(offset, startup.mode() == StartupMode.TIMESTAMP ? startup.timestampMillis() : 0);
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot prepare the MySQL CDC source for " + config.address() + ": "
                    + e.getMessage(), e);
        }
    }

    private static MySqlBinlogSplit fromOffset(BinlogStartOffset offset, long skipBeforeMillis) {
        return new MySqlBinlogSplit(OffsetJson.toJson(offset.toDebeziumOffset()), List.of(), false, skipBeforeMillis);
    }
}
