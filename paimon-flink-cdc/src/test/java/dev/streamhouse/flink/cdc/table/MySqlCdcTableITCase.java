package dev.streamhouse.flink.cdc.table;

import dev.streamhouse.flink.cdc.testing.AllTypes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.streamhouse.flink.cdc.testing.MariaDbExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class MySqlCdcTableITCase {

    @RegisterExtension static final MariaDbExtension MARIADB = new MariaDbExtension();

    @RegisterExtension
    static final MiniClusterExtension FLINK = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());



    @BeforeAll
    static void createTables() {
        MARIADB.execute("SET GLOBAL time_zone = '+00:00'", "CREATE DATABASE ty",
                "CREATE TABLE ty.all_types (" + AllTypes.MYSQL_COLUMNS + ")",
                "INSERT INTO ty.all_types VALUES (1, " + AllTypes.VALUES + ")",
                "INSERT INTO ty.all_types (id) VALUES (2)",
                "CREATE TABLE ty.no_key (id INT, v INT)",
                "CREATE TABLE ty.kv (id INT PRIMARY KEY, v VARCHAR(10))",
                "CREATE TABLE ty.named (name VARCHAR(10) PRIMARY KEY, v INT)",
                "INSERT INTO ty.named VALUES ('a', 1), ('B', 2)",
                "CREATE TABLE ty.sets (k SET('x', 'y') PRIMARY KEY, v INT)",
                "INSERT INTO ty.sets VALUES ('x', 1), ('x,y', 2)");
    }

    private static StreamTableEnvironment tableEnv() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        StreamTableEnvironment t = StreamTableEnvironment.create(env);
        t.getConfig().set("table.local-time-zone", "UTC");
        return t;
    }

    private static String with(String table, String... extra) {
        StringBuilder s = new StringBuilder(" WITH ('connector' = 'mysql-cdc', 'hostname' = '" + MARIADB.host()
                + "', 'port' = '" + MARIADB.port() + "', 'username' = '" + MariaDbExtension.CDC_USER
                + "', 'password' = '" + MariaDbExtension.CDC_PASSWORD + "', 'database-name' = 'ty', 'table-name' = '"
                + table + "', 'server-time-zone' = 'UTC'");
        for (String e : extra) {
            s.append(", ").append(e);
        }
        return s.append(")").toString();
    }


    private static List<String> take(CloseableIterator<Row> it, int n) {
        List<String> rows = new ArrayList<>();
        while (rows.size() < n && it.hasNext()) {
            rows.add(AllTypes.describe(it.next()));
        }
        return rows;
    }

    @Test
    void everyMySqlTypeWithNullsThroughSnapshotAndBinlog() throws Exception {
        StreamTableEnvironment t = tableEnv();
        t.executeSql("CREATE TABLE all_types (" + AllTypes.FLINK_COLUMNS + ")" + with("all_types"));
        String nulls = "2" + ", null".repeat(44);
        TableResult result = t.executeSql("SELECT * FROM all_types");
        try (CloseableIterator<Row> it = result.collect()) {
            assertThat(take(it, 2)).containsExactlyInAnyOrder("+I 1, " + AllTypes.EXPECTED_VALUES, "+I " + nulls);
            MARIADB.execute("INSERT INTO ty.all_types VALUES (3, " + AllTypes.VALUES + ")",
                    "INSERT INTO ty.all_types (id) VALUES (4)");
            assertThat(take(it, 2)).containsExactly("+I 3, " + AllTypes.EXPECTED_VALUES, "+I 4" + ", null".repeat(44));
            MARIADB.execute("UPDATE ty.all_types SET c_varchar = 'bye', c_int = NULL WHERE id = 3",
                    "DELETE FROM ty.all_types WHERE id = 4");
            String updated = AllTypes.EXPECTED_VALUES.replace("hello", "bye").replace(", -2147483648,", ", null,");
            assertThat(take(it, 3)).containsExactly("-U 3, " + AllTypes.EXPECTED_VALUES, "+U 3, " + updated,
                    "-D 4" + ", null".repeat(44));
        }
    }

    @Test
    void aTableWithoutPrimaryKeyIsRefused() {
        StreamTableEnvironment t = tableEnv();
        t.executeSql("CREATE TABLE no_key (id INT, v INT, PRIMARY KEY (id) NOT ENFORCED)" + with("no_key"));
        assertThatThrownBy(() -> t.executeSql("SELECT * FROM no_key"))
                .satisfies(e -> assertThat(ExceptionUtils.stringifyException(e))
                        .contains("MySQL table ty.no_key", "has no primary key"));
        t.executeSql("CREATE TABLE kv_nokey (id INT, v STRING)" + with("kv"));
        assertThatThrownBy(() -> t.executeSql("SELECT * FROM kv_nokey"))
                .satisfies(e -> assertThat(ExceptionUtils.stringifyException(e)).contains("needs a PRIMARY KEY"));
    }

    @Test
    void theSnapshotIsChunkedUnlessIncrementalSnapshotIsOff() throws Exception {
        StreamTableEnvironment t = tableEnv();
        t.executeSql("CREATE TABLE named (name STRING, v INT, PRIMARY KEY (name) NOT ENFORCED)" + with("named",
                "'scan.incremental.snapshot.chunk.size' = '1'"));
        try (CloseableIterator<Row> it = t.executeSql("SELECT * FROM named").collect()) {
            assertThat(take(it, 2)).containsExactlyInAnyOrder("+I a, 1", "+I B, 2");
        }
        // The chunked snapshot cannot order a SET key, and says so when the query is planned.
        t.executeSql("CREATE TABLE sets (k STRING, v INT, PRIMARY KEY (k) NOT ENFORCED)" + with("sets"));
        assertThatThrownBy(() -> t.executeSql("SELECT * FROM sets"))
                .satisfies(e -> assertThat(ExceptionUtils.stringifyException(e))
                        .contains("MySQL table ty.sets", "'k'", "SET", "'scan.incremental.snapshot.enabled' = 'false'"));
        t.executeSql("CREATE TABLE sets_debezium (k STRING, v INT, PRIMARY KEY (k) NOT ENFORCED)"
                + with("sets", "'scan.incremental.snapshot.enabled' = 'false'"));
        try (CloseableIterator<Row> it = t.executeSql("SELECT * FROM sets_debezium").collect()) {
            assertThat(take(it, 2)).containsExactlyInAnyOrder("+I x, 1", "+I x,y, 2");
        }
        t.executeSql("CREATE TABLE kv_chunks (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED)"
                + with("kv", "'scan.incremental.snapshot.chunk.size' = '0'"));
        assertThatThrownBy(() -> t.executeSql("SELECT * FROM kv_chunks"))
                .satisfies(e -> assertThat(ExceptionUtils.stringifyException(e))
                        .contains("'scan.incremental.snapshot.chunk.size' must be positive, got 0"));
    }

    @Test
    void declaredSchemaMustMatchMySql() {
        StreamTableEnvironment t = tableEnv();
        t.executeSql("CREATE TABLE kv_badkey (id INT, v STRING, PRIMARY KEY (v) NOT ENFORCED)" + with("kv"));
        assertThatThrownBy(() -> t.executeSql("SELECT * FROM kv_badkey"))
                .satisfies(e -> assertThat(ExceptionUtils.stringifyException(e))
                        .contains("declares PRIMARY KEY [v]", "has PRIMARY KEY [id]"));
        t.executeSql("CREATE TABLE kv_badtype (id INT, v INT, PRIMARY KEY (id) NOT ENFORCED)" + with("kv"));
        assertThatThrownBy(() -> t.executeSql("SELECT * FROM kv_badtype"))
                .satisfies(e -> assertThat(ExceptionUtils.stringifyException(e))
                        .contains("Column 'v'", "declared INT", "VARCHAR(10)"));
        t.executeSql("CREATE TABLE kv_missing (id INT, w STRING, PRIMARY KEY (id) NOT ENFORCED)" + with("kv"));
        assertThatThrownBy(() -> t.executeSql("SELECT * FROM kv_missing"))
                .satisfies(e -> assertThat(ExceptionUtils.stringifyException(e))
                        .contains("declares column 'w'", "ty.kv"));
    }

    @Test
    void badConnectionSettingsNameTheOption() throws Exception {
        StreamTableEnvironment t = tableEnv();
        int closedPort;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            closedPort = s.getLocalPort();
        }
        t.executeSql("CREATE TABLE bad_port (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED)"
                + with("kv").replace("'port' = '" + MARIADB.port() + "'", "'port' = '" + closedPort + "'"));
        assertThatThrownBy(() -> t.executeSql("SELECT * FROM bad_port"))
                .satisfies(e -> assertThat(ExceptionUtils.stringifyException(e))
                        .contains("Cannot connect to MySQL server 127.0.0.1:" + closedPort, "'hostname'", "'port'"));
        t.executeSql("CREATE TABLE bad_password (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED)"
                + with("kv").replace(MariaDbExtension.CDC_PASSWORD, "wrong"));
        assertThatThrownBy(() -> t.executeSql("SELECT * FROM bad_password"))
                .satisfies(e -> assertThat(ExceptionUtils.stringifyException(e))
                        .contains("access denied for user '" + MariaDbExtension.CDC_USER + "'", "'username'", "'password'"));
    }

    @Test
    void missingPrivilegesAreNamed() {
        MARIADB.execute("CREATE USER 'reader'@'%' IDENTIFIED BY 'pw'", "GRANT SELECT ON ty.* TO 'reader'@'%'");
        StreamTableEnvironment t = tableEnv();
        t.executeSql("CREATE TABLE no_grants (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED)"
                + with("kv").replace("'username' = '" + MariaDbExtension.CDC_USER + "'", "'username' = 'reader'")
                        .replace(MariaDbExtension.CDC_PASSWORD, "pw"));
        assertThatThrownBy(() -> t.executeSql("SELECT * FROM no_grants"))
                .satisfies(e -> assertThat(ExceptionUtils.stringifyException(e))
                        .contains("user 'reader'", "lacks the privileges REPLICATION SLAVE, REPLICATION CLIENT",
                                "GRANT REPLICATION SLAVE, REPLICATION CLIENT ON *.* TO 'reader'"));
    }
}
