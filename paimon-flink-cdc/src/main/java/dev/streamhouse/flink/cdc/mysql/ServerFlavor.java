package dev.streamhouse.flink.cdc.mysql;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * MariaDB or MySQL, told by {@code SELECT VERSION()}. Each needs its own Debezium connector: the
 * MySQL connector must not read MariaDB's binlog (it refuses it or skips events after a restart).
 */
public enum ServerFlavor {
    MARIADB("io.debezium.connector.mariadb.MariaDbConnector"),
    MYSQL("io.debezium.connector.mysql.MySqlConnector");

    private final String connectorClass;

    ServerFlavor(String connectorClass) {
        this.connectorClass = connectorClass;
    }

    public String connectorClass() {
        return connectorClass;
    }

    public static ServerFlavor ofVersion(String version) {
        return version != null && version.toLowerCase(java.util.Locale.ROOT).contains("mariadb") ? MARIADB : MYSQL;
    }

    public static ServerFlavor detect(Connection connection) throws SQLException {
        try (Statement s = connection.createStatement(); ResultSet rs = s.executeQuery("SELECT VERSION()")) {
            rs.next();
            return ofVersion(rs.getString(1));
        }
    }
}
