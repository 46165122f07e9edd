package dev.streamhouse.flink.cdc.mysql;

import dev.streamhouse.flink.cdc.source.MySqlSourceConfig;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Properties;

/**
 * JDBC connections to the source server, with failures turned into messages that name the options
 * to fix. MariaDB's driver talks to both MariaDB and MySQL servers, so it serves the checks made
 * before the flavour is known.
 *
 * <p>The driver is instantiated directly, not looked up in {@link java.sql.DriverManager}: on a Flink
 * cluster this code may come from a user jar (Flink's child-first class loader), whose drivers the
 * DriverManager of the TaskManager or client JVM has not registered or does not let this class see.
 */
public final class MySqlConnections {

    private static final int ACCESS_DENIED = 1045;
    private static final int UNKNOWN_DATABASE = 1049;

    private MySqlConnections() {}

    public static Connection open(MySqlSourceConfig config) {
        return open(config, java.util.Map.of());
    }

    /** With driver properties of its own ({@code defaults}), which the user's JDBC properties override. */
    public static Connection open(MySqlSourceConfig config, java.util.Map<String, String> defaults) {
        Properties properties = new Properties();
        properties.putAll(defaults);
        properties.putAll(config.jdbcProperties());
        properties.setProperty("user", config.username());
        properties.setProperty("password", config.password());
        properties.setProperty("connectTimeout", Long.toString(config.connectTimeoutMillis()));
        String url = "jdbc:mariadb://" + config.hostname() + ":" + config.port() + "/";
        try {
            Connection connection = new org.mariadb.jdbc.Driver().connect(url, properties);
            if (connection == null) {
                throw new IllegalStateException("MariaDB's JDBC driver does not accept the URL " + url);
            }
            return connection;
        } catch (SQLException e) {
            throw connectFailure(config, e);
        }
    }

    /** A readable error for a failed connection attempt. */
    public static IllegalStateException connectFailure(MySqlSourceConfig config, SQLException e) {
        if (e.getErrorCode() == ACCESS_DENIED) {
            return new IllegalStateException("Cannot connect to MySQL server " + config.address()
                    + ": access denied for user '" + config.username()
                    + "'; check the options 'username' and 'password' (" + e.getMessage() + ")", e);
        }
        if (e.getErrorCode() == UNKNOWN_DATABASE) {
            return new IllegalStateException("Cannot connect to MySQL server " + config.address() + ": "
                    + e.getMessage(), e);
        }
        return new IllegalStateException("Cannot connect to MySQL server " + config.address()
                + "; check the options 'hostname' ('" + config.hostname() + "') and 'port' (" + config.port()
                + "), and that the server runs: " + e.getMessage(), e);
    }
}
