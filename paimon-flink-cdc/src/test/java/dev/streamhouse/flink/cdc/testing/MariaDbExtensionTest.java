package dev.streamhouse.flink.cdc.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class MariaDbExtensionTest {

    @RegisterExtension static final MariaDbExtension MARIADB = new MariaDbExtension();

    @Test
    void serverWritesRowBinlogAndTheCdcUserCanReadIt() throws Exception {
        MARIADB.execute("CREATE DATABASE shop", "CREATE TABLE shop.t (id INT PRIMARY KEY, v VARCHAR(10))",
                "INSERT INTO shop.t VALUES (1, 'a')");
        try (Connection c = DriverManager.getConnection(MARIADB.jdbcUrl("shop"), MariaDbExtension.CDC_USER,
                        MariaDbExtension.CDC_PASSWORD);
                Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT @@log_bin, @@binlog_format, @@binlog_row_image, @@port")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt(1)).isEqualTo(1);
                assertThat(rs.getString(2)).isEqualTo("ROW");
                assertThat(rs.getString(3)).isEqualTo("FULL");
                assertThat(rs.getInt(4)).isEqualTo(MARIADB.port());
            }
            try (ResultSet rs = s.executeQuery("SHOW MASTER STATUS")) {
                assertThat(rs.next()).as("binlog position visible to the CDC user").isTrue();
                assertThat(rs.getLong("Position")).isPositive();
            }
            try (ResultSet rs = s.executeQuery("SELECT v FROM t WHERE id = 1")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).isEqualTo("a");
            }
        }
    }

    @Test
    void stopDeletesTheDataDirectoryAndFreesThePort() throws Exception {
        MariaDbExtension own = new MariaDbExtension();
        own.start();
        Path dir = own.directory();
        int port = own.port();
        assertThat(dir.resolve("data")).isDirectory();
        own.stop();
        assertThat(Files.exists(dir)).isFalse();
        try (java.net.ServerSocket socket = new java.net.ServerSocket(port, 1,
                java.net.InetAddress.getLoopbackAddress())) {
            assertThat(socket.getLocalPort()).isEqualTo(port);
        }
    }
}
