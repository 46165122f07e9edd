package dev.streamhouse.flink.cdc.mysql.snapshot;

import dev.streamhouse.flink.cdc.mysql.MySqlConnections;
import dev.streamhouse.flink.cdc.source.MySqlSourceConfig;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;

/**
 * JDBC connections for chunk splitting and reading: session time zone UTC (TIMESTAMP values and
 * bounds as UTC, see {@link JdbcValues}), REPEATABLE READ (what a consistent snapshot needs), and
 * the binary protocol (server-side prepared statements: values arrive as binary, not as text to
 * parse; more than twice the rows per second of the text protocol here). A user's
 * {@code jdbc.properties.useServerPrepStmts} overrides the last.
 */
public final class SnapshotConnections {

    private static final Map<String, String> DEFAULTS = Map.of("useServerPrepStmts", "true");

    private SnapshotConnections() {}

    public static Connection open(MySqlSourceConfig config) throws SQLException {
        Connection connection = MySqlConnections.open(config, DEFAULTS);
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
