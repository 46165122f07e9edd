package dev.streamhouse.flink.cdc.source;

import static org.assertj.core.api.Assertions.assertThat;

import dev.streamhouse.flink.cdc.testing.MariaDbExtension;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Every {@code scan.startup.mode} but {@code initial} (which the other tests use): where reading starts. */
class StartupModesITCase {

    @RegisterExtension static final MariaDbExtension MARIADB = new MariaDbExtension();

    @RegisterExtension
    static final MiniClusterExtension FLINK = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

    private static CloseableIterator<String> run(String database, StartupOptions startup, boolean withSchema)
            throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        return env.fromSource(MySqlCdcSourceITCase.source(MARIADB, database, "t", withSchema).startupOptions(startup)
                .build(), WatermarkStrategy.noWatermarks(), "mysql-cdc").executeAndCollect();
    }

    private static List<String> take(CloseableIterator<String> it, int n) {
        List<String> out = new ArrayList<>();
        while (out.size() < n && it.hasNext()) {
            out.add(it.next());
        }
        return out;
    }

    private static String[] masterStatus() throws Exception {
        try (Connection c = MARIADB.rootConnection(); Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SHOW MASTER STATUS")) {
            rs.next();
            return new String[] {rs.getString(1), Long.toString(rs.getLong(2))};
        }
    }

    @Test
    void latestOffsetSkipsWhatCameBefore() throws Exception {
        MARIADB.execute("CREATE DATABASE lat", "CREATE TABLE lat.t (id INT PRIMARY KEY)", "INSERT INTO lat.t VALUES (1)");
        try (CloseableIterator<String> it = run("lat", StartupOptions.latest(), true)) {
            // The table's schema, read when the source starts, arrives before any row.
            assertThat(take(it, 1)).singleElement().asString().startsWith("schema lat.t v1");
            MARIADB.execute("INSERT INTO lat.t VALUES (2)");
            assertThat(take(it, 1)).containsExactly("+I lat.t [2]");
        }
    }

    @Test
    void earliestOffsetReadsTheWholeBinlog() throws Exception {
        MARIADB.execute("CREATE DATABASE ear", "CREATE TABLE ear.t (id INT PRIMARY KEY, v INT)",
                "INSERT INTO ear.t VALUES (1, 1)", "UPDATE ear.t SET v = 2 WHERE id = 1", "INSERT INTO ear.t VALUES (2, 2)");
        try (CloseableIterator<String> it = run("ear", StartupOptions.earliest(), false)) {
            assertThat(take(it, 3)).containsExactly("+I ear.t [1, 1]", "U ear.t [1, 1] -> [1, 2]", "+I ear.t [2, 2]");
        }
    }

    @Test
    void specificOffsetStartsAtTheGivenPosition() throws Exception {
        MARIADB.execute("CREATE DATABASE spe", "CREATE TABLE spe.t (id INT PRIMARY KEY)", "INSERT INTO spe.t VALUES (1)");
        String[] position = masterStatus();
        MARIADB.execute("INSERT INTO spe.t VALUES (2)", "DELETE FROM spe.t WHERE id = 1");
        try (CloseableIterator<String> it = run("spe",
                StartupOptions.specificOffset(position[0], Long.parseLong(position[1])), false)) {
            assertThat(take(it, 2)).containsExactly("+I spe.t [2]", "-D spe.t [1]");
        }
    }

    @Test
    void timestampSkipsChangesMadeBeforeIt() throws Exception {
        MARIADB.execute("CREATE DATABASE tim", "CREATE TABLE tim.t (id INT PRIMARY KEY)", "INSERT INTO tim.t VALUES (1)");
        // Binlog event times have whole seconds: keep the start a second away from both inserts.
        Thread.sleep(1_100);
        long start = System.currentTimeMillis();
        Thread.sleep(1_100);
        MARIADB.execute("INSERT INTO tim.t VALUES (2)");
        try (CloseableIterator<String> it = run("tim", StartupOptions.timestamp(start), false)) {
            assertThat(take(it, 1)).containsExactly("+I tim.t [2]");
        }
    }
}
