package dev.streamhouse.flink.cdc.mysql;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** Reads binlog positions from the server: its current end and its oldest file. */
public final class BinlogPositions {

  /** The first event of every binlog file starts here, after the 4-byte magic number. */
  public static final long FILE_START = 4;

  private BinlogPositions() {}

  /** The end of the binlog now ({@code SHOW MASTER STATUS}). */
  public static BinlogOffset current(Connection connection, String address) throws SQLException {
    try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery("SHOW MASTER STATUS")) {
      if (!rs.next()) {
        throw new IllegalStateException("MySQL server " + address + " has no binlog (SHOW MASTER STATUS is "
            + "empty): start it with --log-bin --binlog-format=ROW");
      }
      return new BinlogOffset(rs.getString(1), rs.getLong(2), null);
    }
  }

  /** The start of the oldest binlog file the server keeps ({@code SHOW BINARY LOGS}). */
  public static BinlogOffset earliest(Connection connection, String address) throws SQLException {
    try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery("SHOW BINARY LOGS")) {
      if (!rs.next()) {
        throw new IllegalStateException("MySQL server " + address + " lists no binlog files");
      }
      return new BinlogOffset(rs.getString(1), FILE_START, null);
    }
  }
}
