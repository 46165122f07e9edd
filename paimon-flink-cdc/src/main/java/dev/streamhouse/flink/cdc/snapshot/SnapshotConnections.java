package dev.streamhouse.flink.cdc.snapshot;

import dev.streamhouse.flink.cdc.mysql.MySqlConnections;
import dev.streamhouse.flink.cdc.source.MySqlSourceConfig;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * JDBC connections for chunk splitting and reading: session time zone UTC (TIMESTAMP values and
 * bounds as UTC text, see {@link JdbcValues}) and REPEATABLE READ (what a consistent snapshot needs).
 */
public final class SnapshotConnections {

    private SnapshotConnections() {}

    public static Connection open(MySqlSourceConfig config) throws SQLException {
        Connection connection = MySqlConnections.open(config);
        try (Statement s = connection.createStatement()) {
            s.execute("SET SESSION time_zone = '+00:00'");
            s.execute("SET SESSION TRANSACTION ISOLATION LEVEL REPEATABLE READ");
        } catch (SQLException e) {
            connection.close();
            throw e;
        }
        return connection;
    }
}
