package dev.streamhouse.flink.cdc.sync;

import dev.streamhouse.flink.cdc.action.CdcActionsTesting;
import dev.streamhouse.flink.cdc.testing.MariaDbExtension;
import dev.streamhouse.flink.cdc.testing.SyncFailoverChecks;
import dev.streamhouse.flink.cdc.testing.SyncedWarehouse;
import dev.streamhouse.storage.table.Table;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A sync that crashes (cancelled without a savepoint while MySQL keeps changing) and is restarted from
 * its last retained checkpoint, twice: the table ends equal to MySQL's, and its input changelog holds
 * every MySQL change exactly once, in order per key (values only grow), none lost and none repeated.
 */
class MySqlSyncFailoverITCase {
    @RegisterExtension
    static final MariaDbExtension MARIADB = new MariaDbExtension();

    @RegisterExtension
    static final MiniClusterExtension FLINK = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(4).build());

    private static final int KEYS = 20;
    private static final int CHANGES = 1500;

    @TempDir
    Path dir;

    private JobClient start(Path checkpoints, String restoreFrom) throws Exception {
        List<String> args = new ArrayList<>(List.of("--warehouse", dir.resolve("wh").toUri().toString(),
                "--database", "ods", "--table", "t", "--table_conf", "bucket=2",
                "--table_conf", "changelog-producer=input",
                "--mysql_conf", "hostname=" + MARIADB.host(), "--mysql_conf", "port=" + MARIADB.port(),
                "--mysql_conf", "username=" + MariaDbExtension.CDC_USER,
                "--mysql_conf", "password=" + MariaDbExtension.CDC_PASSWORD,
                "--mysql_conf", "database-name=fo", "--mysql_conf", "table-name=t",
                "-D", "execution.checkpointing.interval=200ms", "-D", "parallelism.default=2",
                "-D", "execution.checkpointing.dir=" + checkpoints.toUri(),
                "-D", "execution.checkpointing.externalized-checkpoint-retention=RETAIN_ON_CANCELLATION"));
        if (restoreFrom != null) {
            args.addAll(List.of("-D", "execution.state-recovery.path=" + restoreFrom));
        }
        return CdcActionsTesting.submit("mysql_sync_table", args.toArray(new String[0]));
    }

    @Test
    @Timeout(300)
    void aCrashedSyncRestartedFromItsCheckpointLosesAndRepeatsNoChange() throws Exception {
        MARIADB.execute("CREATE DATABASE fo", "CREATE TABLE fo.t (id INT PRIMARY KEY, v INT NOT NULL)",
                "INSERT INTO fo.t VALUES (0, 0)");
        AtomicReference<Throwable> writerFailure = new AtomicReference<>();
        Thread writer = new Thread(() -> {
            try (Connection c = MARIADB.rootConnection(); Statement s = c.createStatement()) {
                Map<Integer, Integer> present = new HashMap<>(Map.of(0, 0));
                for (int i = 1; i <= CHANGES; i++) {
                    int k = i % KEYS;
                    switch (SyncFailoverChecks.change(i, KEYS, present)) {
                        case DELETE:
                            s.execute("DELETE FROM fo.t WHERE id = " + k);
                            break;
                        case UPDATE:
                            s.execute("UPDATE fo.t SET v = " + i + " WHERE id = " + k);
                            break;
                        default:
                            s.execute("INSERT INTO fo.t VALUES (" + k + ", " + i + ")");
                    }
                    Thread.sleep(2);
                }
            } catch (Throwable e) {
                writerFailure.set(e);
            }
        }, "mysql-writer");

        Path checkpoints = dir.resolve("checkpoints");
        JobClient job = start(checkpoints, null);
        Table table = awaitTable();
        writer.start();
        for (int crash = 0; crash < 2; crash++) {
            // Let some checkpoints complete with data, then crash without a savepoint and restart.
            long snapshots = latestSnapshot(table);
            await().atMost(Duration.ofMinutes(2)).until(() -> latestSnapshot(table) >= snapshots + 3);
            job.cancel().get(1, TimeUnit.MINUTES);
            job = start(checkpoints, SyncFailoverChecks.latestCheckpoint(checkpoints));
        }
        writer.join(TimeUnit.MINUTES.toMillis(2));
        assertThat(writerFailure.get()).isNull();

        Map<Integer, Integer> rows = SyncFailoverChecks.finalRows(CHANGES, KEYS);
        await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(300))
                .untilAsserted(() -> assertThat(SyncFailoverChecks.values(table))
                        .isEqualTo(SyncFailoverChecks.expected(rows)));
        job.cancel().get(1, TimeUnit.MINUTES);
        SyncFailoverChecks.assertChangelogExact(table, rows, SyncFailoverChecks.insertsAndUpdates(CHANGES, KEYS));
    }

    private Table awaitTable() {
        return new SyncedWarehouse(dir.resolve("wh")).awaitTable("ods.t");
    }

    private static long latestSnapshot(Table table) {
        return SyncFailoverChecks.latestSnapshot(table);
    }
}
