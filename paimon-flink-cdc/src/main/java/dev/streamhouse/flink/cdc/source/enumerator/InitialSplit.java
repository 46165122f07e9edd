package dev.streamhouse.flink.cdc.source.enumerator;

import dev.streamhouse.flink.cdc.debezium.OffsetJson;
import dev.streamhouse.flink.cdc.mysql.BinlogOffset;
import dev.streamhouse.flink.cdc.mysql.BinlogPositions;
import dev.streamhouse.flink.cdc.mysql.MySqlConnections;
import dev.streamhouse.flink.cdc.mysql.ServerChecks;
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
      return switch (startup.mode()) {
        case INITIAL -> new MySqlBinlogSplit(null, List.of(), true, 0);
        case LATEST_OFFSET -> fromOffset(BinlogPositions.current(connection, config.address()), 0);
        case EARLIEST_OFFSET -> fromOffset(BinlogPositions.earliest(connection, config.address()), 0);
        case SPECIFIC_OFFSET -> startup.gtidSet() != null
            ? fromOffset(new BinlogOffset(BinlogPositions.earliest(connection, config.address()).file(),
                BinlogPositions.FILE_START, startup.gtidSet()), 0)
            : fromOffset(new BinlogOffset(startup.binlogFile(), startup.binlogPosition(), null), 0);
        case TIMESTAMP -> fromOffset(BinlogPositions.earliest(connection, config.address()),
            startup.timestampMillis());
      };
    } catch (SQLException e) {
      throw new IllegalStateException("Cannot prepare the MySQL CDC source for " + config.address() + ": "
          + e.getMessage(), e);
    }
  }

  private static MySqlBinlogSplit fromOffset(BinlogOffset offset, long skipBeforeMillis) {
    return new MySqlBinlogSplit(OffsetJson.toJson(offset.toDebeziumOffset()), List.of(), false, skipBeforeMillis);
  }
}
