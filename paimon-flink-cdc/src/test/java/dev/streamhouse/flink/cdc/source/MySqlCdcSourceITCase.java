package dev.streamhouse.flink.cdc.source;

import static org.assertj.core.api.Assertions.assertThat;

import dev.streamhouse.flink.cdc.testing.AllColumnTypes;
import dev.streamhouse.flink.cdc.testing.MariaDbExtension;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class MySqlCdcSourceITCase {

    @RegisterExtension static final MariaDbExtension MARIADB = new MariaDbExtension();
    @RegisterExtension
    static final MiniClusterExtension FLINK = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

    static MySqlCdcSourceBuilder<String> source(String database, String table, boolean withSchema) {
        return source(MARIADB, database, table, withSchema);
    }

    static MySqlCdcSourceBuilder<String> source(MariaDbExtension server, String database, String table,
            boolean withSchema) {
        return MySqlCdcSource.<String>builder()
                .hostname(server.host()).port(server.port())
                .username(MariaDbExtension.CDC_USER).password(MariaDbExtension.CDC_PASSWORD)
                .databaseName(database).tableName(table)
                .deserializer(new EventStrings(withSchema));
    }

    static List<String> take(CloseableIterator<String> it, int n) {
        List<String> out = new ArrayList<>();
        while (out.size() < n && it.hasNext()) {
            out.add(it.next());
        }
        return out;
    }

    @Test
    void snapshotThenBinlogWithUpdatesAndDeletes() throws Exception {
        MARIADB.execute("CREATE DATABASE s1", "CREATE TABLE s1.t (id INT PRIMARY KEY, v VARCHAR(20))",
                "INSERT INTO s1.t VALUES (1, 'a'), (2, 'b'), (3, NULL)",
                "CREATE TABLE s1.other (id INT PRIMARY KEY)", "INSERT INTO s1.other VALUES (9)");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        try (CloseableIterator<String> it = env.fromSource(source("s1", "t", true).build(),
                WatermarkStrategy.noWatermarks(), "mysql-cdc").executeAndCollect()) {
            assertThat(take(it, 4)).containsExactly(
                    "schema s1.t v1 [id INT(11) NOT NULL, v VARCHAR(20)] pk [id]",
                    "+I s1.t [1, a]", "+I s1.t [2, b]", "+I s1.t [3, null]");
            MARIADB.execute("INSERT INTO s1.t VALUES (4, 'd')", "UPDATE s1.t SET v = 'bb' WHERE id = 2",
                    "DELETE FROM s1.t WHERE id = 1", "INSERT INTO s1.other VALUES (10)");
            // Each reader emits a table's schema before its first row of the table: the binlog's reader
            // may be another one than the snapshot chunk's.
            List<String> changes = take(it, 3);
            if (changes.get(0).startsWith("schema ")) {
                assertThat(changes.get(0)).isEqualTo("schema s1.t v1 [id INT(11) NOT NULL, v VARCHAR(20)] pk [id]");
                changes = new ArrayList<>(changes.subList(1, 3));
                changes.addAll(take(it, 1));
            }
            assertThat(changes).containsExactly("+I s1.t [4, d]", "U s1.t [2, b] -> [2, bb]", "-D s1.t [1, a]");
        }
    }

    /**
     * The chunked snapshot reads schemas and values over JDBC, the binlog through Debezium: for every
     * column type they must agree, so that the switch from one to the other shows no schema change
     * and the same row reads the same either way (with Debezium's snapshot for comparison).
     */
    @Test
    void theBinlogContinuesTheChunkedSnapshotsSchemaAndValuesForEveryType() throws Exception {
        MARIADB.execute("SET GLOBAL time_zone = '+00:00'", "CREATE DATABASE s2",
                "CREATE TABLE s2.t (" + AllColumnTypes.COLUMNS + ")",
                "INSERT INTO s2.t VALUES (1, " + AllColumnTypes.VALUES + ")", "INSERT INTO s2.t (id) VALUES (2)");
        List<String> chunked = readThenInsert(source("s2", "t", true).serverTimeZone("UTC").build());
        assertThat(chunked).hasSize(5);
        assertThat(chunked.get(0)).startsWith("schema s2.t v1 [id INT(11) NOT NULL, c_bool TINYINT(1), ");
        assertThat(chunked.subList(1, 5)).noneMatch(l -> l.startsWith("schema"));
        assertThat(chunked.get(3)).as("the binlog's row 3 equals the snapshot's row 1")
                .isEqualTo(chunked.get(1).replace("+I s2.t [1, ", "+I s2.t [3, "));
        List<String> debezium = readThenInsert(source("s2", "t", true).serverTimeZone("UTC").debeziumSnapshot()
                .build());
        assertThat(debezium.get(0)).as("Debezium's schema").isEqualTo(chunked.get(0));
        assertThat(debezium.subList(1, 3)).as("Debezium's snapshot rows").isEqualTo(chunked.subList(1, 3));
    }

    /** Zero dates read in the chunked snapshot as Debezium's binlog records have them. */
    @Test
    void zeroDatesReadTheSameInTheChunkedSnapshotAndTheBinlog() throws Exception {
        String zeros = "'0000-00-00', '0000-00-00 00:00:00', '0000-00-00 00:00:00', '0000-00-00', "
                + "'0000-00-00 00:00:00', '0000-00-00 00:00:00'";
        MARIADB.execute("CREATE DATABASE s3", "CREATE TABLE s3.z (id INT PRIMARY KEY, d DATE, dt DATETIME, "
                + "ts TIMESTAMP NULL, dn DATE NOT NULL, dtn DATETIME NOT NULL, tsn TIMESTAMP NOT NULL DEFAULT 0)");
        try (var c = MARIADB.rootConnection(); var s = c.createStatement()) {
            s.execute("SET SESSION sql_mode = ''");
            s.execute("INSERT INTO s3.z VALUES (1, " + zeros + ")");
        }
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        try (CloseableIterator<String> it = env.fromSource(source("s3", "z", false).serverTimeZone("UTC").build(),
                WatermarkStrategy.noWatermarks(), "mysql-cdc").executeAndCollect()) {
            String snapshot = take(it, 1).get(0);
            try (var c = MARIADB.rootConnection(); var s = c.createStatement()) {
                s.execute("SET SESSION sql_mode = ''");
                s.execute("INSERT INTO s3.z VALUES (2, " + zeros + ")");
            }
            assertThat(snapshot).isEqualTo("+I s3.z [1, null, null, 1970-01-01T00:00:00Z, 1970-01-01, "
                    + "1970-01-01T00:00, 1970-01-01T00:00:00Z]");
            assertThat(take(it, 1)).containsExactly(snapshot.replace("[1, ", "[2, "));
        }
    }

    /** The snapshot (schema and two rows), then rows 3 and 4 inserted into the binlog. */
    private static List<String> readThenInsert(MySqlCdcSource<String> source) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        try (CloseableIterator<String> it = env.fromSource(source, WatermarkStrategy.noWatermarks(), "mysql-cdc")
                .executeAndCollect()) {
            List<String> lines = new ArrayList<>(take(it, 3));
            MARIADB.execute("INSERT INTO s2.t VALUES (3, " + AllColumnTypes.VALUES + ")",
                    "INSERT INTO s2.t (id) VALUES (4)");
            lines.addAll(take(it, 2));
            MARIADB.execute("DELETE FROM s2.t WHERE id > 2");
            return lines;
        }
    }
}
