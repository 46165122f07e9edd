package dev.streamhouse.flink.cdc.sync;

import dev.streamhouse.flink.cdc.action.CdcActionsTesting;
import dev.streamhouse.flink.cdc.testing.MariaDbExtension;
import dev.streamhouse.storage.catalog.Catalog;
import dev.streamhouse.storage.catalog.CatalogFactory;
import dev.streamhouse.storage.catalog.Identifier;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRowUtils;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.table.Table;
import dev.streamhouse.storage.table.source.DataSplit;
import dev.streamhouse.storage.table.source.ReadBuilder;
import dev.streamhouse.storage.table.source.StreamTableScan;
import dev.streamhouse.storage.table.source.TableRead;
import dev.streamhouse.storage.table.source.TableScan;
import dev.streamhouse.storage.testutils.TestTables;
import dev.streamhouse.storage.types.RowType;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

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

    /** The newest completed checkpoint under {@code checkpoints} (a directory with _metadata). */
    private static String latestCheckpoint(Path checkpoints) throws Exception {
        try (Stream<Path> walk = Files.walk(checkpoints)) {
            return walk.filter(p -> p.getFileName().toString().equals("_metadata"))
                    .map(Path::getParent)
                    .max(Comparator.comparingLong(p -> Long.parseLong(p.getFileName().toString().substring(4))))
                    .map(p -> p.toUri().toString())
                    .orElseThrow(() -> new AssertionError("no completed checkpoint under " + checkpoints));
        }
    }

    @Test
    @Timeout(300)
    void aCrashedSyncRestartedFromItsCheckpointLosesAndRepeatsNoChange() throws Exception {
        MARIADB.execute("CREATE DATABASE fo", "CREATE TABLE fo.t (id INT PRIMARY KEY, v INT NOT NULL)",
                "INSERT INTO fo.t VALUES (0, 0)");
        Map<Integer, Integer> model = new TreeMap<>(Map.of(0, 0));
        AtomicReference<Throwable> writerFailure = new AtomicReference<>();
        Thread writer = new Thread(() -> {
            try (Connection c = MARIADB.rootConnection(); Statement s = c.createStatement()) {
                for (int i = 1; i <= CHANGES; i++) {
                    int k = i % KEYS;
                    if (model.containsKey(k) && i % 11 == 0) {
                        s.execute("DELETE FROM fo.t WHERE id = " + k);
                        model.remove(k);
                    } else if (model.containsKey(k)) {
                        s.execute("UPDATE fo.t SET v = " + i + " WHERE id = " + k);
                        model.put(k, i);
                    } else {
                        s.execute("INSERT INTO fo.t VALUES (" + k + ", " + i + ")");
                        model.put(k, i);
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
            job = start(checkpoints, latestCheckpoint(checkpoints));
        }
        writer.join(TimeUnit.MINUTES.toMillis(2));
        assertThat(writerFailure.get()).isNull();

        List<String> expected = new ArrayList<>();
        model.forEach((k, v) -> expected.add("(" + k + ", " + v + ")"));
        await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(300))
                .untilAsserted(() -> assertThat(values(table)).isEqualTo(expected));
        job.cancel().get(1, TimeUnit.MINUTES);

        // The input changelog: per key, each value once, growing; retractions only of the value before.
        Map<Integer, Integer> state = new HashMap<>();
        int changes = 0;
        for (GenericRow r : changelog(table)) {
            int k = r.intAt(0);
            int v = r.intAt(1);
            Integer before = state.get(k);
            if (r.rowKind() == RowKind.INSERT || r.rowKind() == RowKind.UPDATE_AFTER) {
                assertThat(before).as("key %s gets %s while it holds %s (%s)", k, v, before, r.rowKind()).isNull();
                state.put(k, v);
                changes++;
            } else {
                assertThat(before).as("key %s retracts %s (%s)", k, v, r.rowKind()).isEqualTo(v);
                state.remove(k);
            }
        }
        Map<Integer, Integer> finalState = new TreeMap<>(state);
        assertThat(finalState).isEqualTo(model);
        assertThat(changes).as("inserts and updates in the changelog, each once").isEqualTo(CHANGES + 1
                - (int) java.util.stream.IntStream.rangeClosed(1, CHANGES).filter(i -> deletes(i)).count());
    }

    /** Whether change i of the writer deleted its key (replayed on a fresh model, the way the writer runs). */
    private static boolean deletes(int i) {
        return DELETES.contains(i);
    }

    private static final java.util.Set<Integer> DELETES = deletesOfTheRun();

    private static java.util.Set<Integer> deletesOfTheRun() {
        java.util.Set<Integer> deletes = new java.util.HashSet<>();
        java.util.Set<Integer> present = new java.util.HashSet<>(List.of(0));
        for (int i = 1; i <= CHANGES; i++) {
            int k = i % KEYS;
            if (present.contains(k) && i % 11 == 0) {
                deletes.add(i);
                present.remove(k);
            } else {
                present.add(k);
            }
        }
        return deletes;
    }

    private Catalog catalog() {
        return CatalogFactory.createCatalog(new Options(Map.of("warehouse", dir.resolve("wh").toUri().toString())));
    }

    private Table awaitTable() {
        await().atMost(Duration.ofMinutes(2)).until(() -> {
            try (Catalog catalog = catalog()) {
                return catalog.tableExists(Identifier.of("ods", "t"));
            }
        });
        try (Catalog catalog = catalog()) {
            return catalog.getTable(Identifier.of("ods", "t"));
        }
    }

    private static long latestSnapshot(Table table) {
        return table.latestSnapshot().map(s -> s.id()).orElse(0L);
    }

    private static List<String> values(Table table) throws Exception {
        List<String> out = new ArrayList<>();
        for (String row : TestTables.readAll(table)) {
            out.add(row.substring(row.indexOf('(')));
        }
        out.sort(Comparator.comparingInt(s -> Integer.parseInt(s.substring(1, s.indexOf(',')))));
        return out;
    }

    /** The whole changelog from snapshot 1, snapshot by snapshot, through the storage's streaming read. */
    private static List<GenericRow> changelog(Table table) throws Exception {
        long latest = latestSnapshot(table);
        ReadBuilder rb = table.copy(Map.of("scan.mode", "from-snapshot", "scan.snapshot-id", "1")).newReadBuilder();
        RowType type = rb.readType();
        StreamTableScan scan = rb.newStreamScan();
        TableRead read = rb.newRead();
        List<GenericRow> out = new ArrayList<>();
        for (int plans = 0; plans <= latest + 2; plans++) {
            TableScan.Plan plan = scan.plan();
            if (plan.snapshotId() == null) {
                return out;
            }
            for (DataSplit split : plan.splits()) {
                read.createReader(split).forEachRemaining(r -> out.add(InternalRowUtils.copyToGeneric(r, type)));
            }
        }
        throw new AssertionError("The stream scan did not catch up with snapshot " + latest);
    }
}
