package dev.streamhouse.flink.cdc.source;

import static org.assertj.core.api.Assertions.assertThat;

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
}
