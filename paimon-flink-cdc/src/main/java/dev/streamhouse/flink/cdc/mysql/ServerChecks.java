package dev.streamhouse.flink.cdc.mysql;

import dev.streamhouse.flink.cdc.source.MySqlSourceConfig;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What a CDC source checks on the server before it starts: row-based binlog with full row images,
 * and the user's global replication privileges (a missing one is named with the GRANT that adds
 * it). SELECT may be granted per database or table; tables the user cannot read are not listed by
 * {@link TableDiscovery}.
 */
public final class ServerChecks {

    private ServerChecks() {}

    public static void check(Connection connection, MySqlSourceConfig config) throws SQLException {
        checkBinlog(connection, config);
        checkPrivileges(connection, config);
    }

    private static void checkBinlog(Connection connection, MySqlSourceConfig config) throws SQLException {
        try (Statement s = connection.createStatement();
                ResultSet rs = s.executeQuery("SELECT @@log_bin, @@binlog_format, @@binlog_row_image")) {
            rs.next();
            if (rs.getInt(1) != 1) {
                throw new IllegalStateException("MySQL server " + config.address() + " does not write a binlog: "
                        + "start it with --log-bin --binlog-format=ROW --binlog-row-image=FULL");
            }
            if (!"ROW".equalsIgnoreCase(rs.getString(2))) {
                throw new IllegalStateException("MySQL server " + config.address() + " has binlog_format "
                        + rs.getString(2) + "; CDC needs ROW (SET GLOBAL binlog_format = 'ROW', or --binlog-format=ROW)");
            }
            if (!"FULL".equalsIgnoreCase(rs.getString(3))) {
                throw new IllegalStateException("MySQL server " + config.address() + " has binlog_row_image "
                        + rs.getString(3) + "; CDC needs FULL (--binlog-row-image=FULL)");
            }
        }
    }

    private static void checkPrivileges(Connection connection, MySqlSourceConfig config) throws SQLException {
        StringBuilder grants = new StringBuilder();
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery("SHOW GRANTS")) {
            while (rs.next()) {
                String grant = rs.getString(1).toUpperCase(Locale.ROOT);
                if (grant.contains(" ON *.* ")) {
                    grants.append(grant).append('\n');
                }
            }
        }
        String global = grants.toString();
        if (global.contains("ALL PRIVILEGES")) {
            return;
        }
        List<String> missing = new ArrayList<>();
        if (!global.contains("REPLICATION SLAVE") && !global.contains("REPLICATION REPLICA")) {
            missing.add("REPLICATION SLAVE");
        }
        if (!global.contains("REPLICATION CLIENT") && !global.contains("BINLOG MONITOR")) {
            missing.add("REPLICATION CLIENT");
        }
        if (!missing.isEmpty()) {
            throw new IllegalStateException("MySQL user '" + config.username() + "' on " + config.address()
                    + " lacks the privileges " + String.join(", ", missing) + " that CDC needs; grant them with: GRANT "
                    + String.join(", ", missing) + " ON *.* TO '" + config.username() + "'@'%'");
        }
    }
}
