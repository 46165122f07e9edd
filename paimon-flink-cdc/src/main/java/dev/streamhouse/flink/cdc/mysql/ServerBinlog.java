package dev.streamhouse.flink.cdc.mysql;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Asks the server about its binlog: where it ends now, where its oldest file starts, and (on
 * MariaDB) the GTID position at a file and position. Answers are {@link BinlogStartOffset}s, from
 * which a reader can start or, with {@link BinlogStartOffset#toPosition()}, positions to compare.
 */
public final class ServerBinlog {

    /** The first event of every binlog file starts here, after the 4-byte magic number. */
    public static final long FILE_START = 4;

    private ServerBinlog() {}

    /** The end of the binlog now ({@code SHOW MASTER STATUS}). */
    public static BinlogStartOffset current(Connection connection, String address) throws SQLException {
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery("SHOW MASTER STATUS")) {
            if (!rs.next()) {
                throw new IllegalStateException("MySQL server " + address + " has no binlog (SHOW MASTER STATUS is "
                        + "empty): start it with --log-bin --binlog-format=ROW");
            }
            return new BinlogStartOffset(rs.getString(1), rs.getLong(2), null);
        }
    }

    /**
     * The offset with MariaDB's GTID position at its file and position ({@code BINLOG_GTID_POS}):
     * Debezium's MariaDB connector streams by GTID and needs it. MySQL offsets stay file and position.
     */
    public static BinlogStartOffset withGtidPosition(Connection connection, ServerFlavor flavor, BinlogStartOffset offset,
            String address) throws SQLException {
        if (flavor != ServerFlavor.MARIADB || offset.gtidSet() != null) {
            return offset;
        }
        try (java.sql.PreparedStatement s = connection.prepareStatement("SELECT BINLOG_GTID_POS(?, ?)")) {
            s.setString(1, offset.file());
            s.setLong(2, offset.position());
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                String gtid = rs.getString(1);
                if (gtid == null) {
                    throw new IllegalStateException("MariaDB server " + address + " has no binlog event at " + offset.file()
                            + ":" + offset.position() + " (BINLOG_GTID_POS is NULL); check 'scan.startup.specific-offset.file'"
                            + " and 'scan.startup.specific-offset.pos'");
                }
                if (gtid.isEmpty()) {
                    gtid = beforeFirstGtid(connection, offset.file());
                }
                return new BinlogStartOffset(offset.file(), offset.position(), gtid);
            }
        }
    }

    /**
     * No GTID precedes the file (the server's first binlog): the position just before the file's
     * first GTID (sequence number one less), so streaming starts with its first transaction.
     * Debezium's MariaDB connector cannot start from an empty GTID position.
     */
    private static String beforeFirstGtid(Connection connection, String file) throws SQLException {
        java.util.regex.Pattern gtidPattern = java.util.regex.Pattern.compile("(\\d+)-(\\d+)-(\\d+)");
        try (Statement s = connection.createStatement();
                ResultSet rs = s.executeQuery("SHOW BINLOG EVENTS IN '" + file.replace("'", "''") + "'")) {
            while (rs.next()) {
                if ("Gtid".equalsIgnoreCase(rs.getString("Event_type"))) {
                    java.util.regex.Matcher m = gtidPattern.matcher(rs.getString("Info"));
                    if (m.find()) {
                        return m.group(1) + "-" + m.group(2) + "-" + (Long.parseLong(m.group(3)) - 1);
                    }
                }
            }
        }
        return "";
    }

    /** The start of the oldest binlog file the server keeps ({@code SHOW BINARY LOGS}). */
    public static BinlogStartOffset earliest(Connection connection, String address) throws SQLException {
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery("SHOW BINARY LOGS")) {
            if (!rs.next()) {
                throw new IllegalStateException("MySQL server " + address + " lists no binlog files");
            }
            return new BinlogStartOffset(rs.getString(1), FILE_START, null);
        }
    }
}
