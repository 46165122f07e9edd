package dev.streamhouse.flink.catalog.metrics;

import dev.streamhouse.flink.catalog.testutils.CatalogITCaseBase;
import dev.streamhouse.flink.common.metrics.MetricsForTests;
import dev.streamhouse.storage.catalog.Identifier;
import dev.streamhouse.storage.snapshot.CommitKind;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.table.Table;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The table metrics of the scan, writer-buffer, compaction and lookup groups, and the FLIP-33 source and
 * sink metrics, read through a metric reporter while (or after) real jobs run, against the table's real
 * state: its snapshots and its files as the system tables list them.
 */
class TableMetricsITCase extends CatalogITCaseBase {
    private static final Duration PATIENCE = Duration.ofSeconds(90);

    private TableEnvironment sEnv;
    private final List<TableResult> running = new ArrayList<>();

    @Override
    protected Map<String, String> catalogOptions() {
        return Map.of("table-default.continuous.discovery-interval", "100 ms", "table-default.scan.parallelism", "1");
    }

    @BeforeEach
    void streamingEnvironment() {
        MetricsForTests.clear();
        sEnv = newStreamingEnvironment();
    }

    @AfterEach
    void cancelJobs() {
        for (TableResult r : running) {
            r.getJobClient().ifPresent(c -> {
                try {
                    c.cancel().get();
                } catch (Exception e) {
                    // already finished
                }
            });
        }
    }

    @Test
    void batchReadReportsWhatItsPlanningRead() {
        sql("CREATE TABLE t (k INT, dt STRING, v STRING, PRIMARY KEY (k, dt) NOT ENFORCED) PARTITIONED BY (dt) "
                + "WITH ('bucket' = '2')");
        for (int i = 0; i < 3; i++) {
            sql("INSERT INTO t VALUES (%d, 'a', 'x'), (%d, 'a', 'y'), (%d, 'b', 'z')", 3 * i, 3 * i + 1, 3 * i + 2);
        }
        long filesA = count("SELECT COUNT(*) FROM `t$files` WHERE `partition` = '{a}'");
        long filesB = count("SELECT COUNT(*) FROM `t$files` WHERE `partition` = '{b}'");
        long latest = count("SELECT MAX(snapshot_id) FROM `t$snapshots`");
        assertThat(filesA).isPositive();
        assertThat(filesB).isPositive();
        MetricsForTests.clear();

        assertThat(rows("SELECT k FROM t WHERE dt = 'a'")).hasSize(6);

        Map<String, Object> scan = MetricsForTests.values(".paimon.table.t.scan.");
        assertThat(metric(scan, "lastScanResultedTableFiles")).isEqualTo(filesA);
        // Each insert's manifest holds both partitions: b's files are read and skipped, not pruned.
        assertThat(metric(scan, "lastScanSkippedTableFiles")).isEqualTo(filesB);
        assertThat(metric(scan, "lastScannedManifests")).isBetween(1L, 3L);
        assertThat(metric(scan, "lastScannedSnapshotId")).isEqualTo(latest);
        assertThat(metric(scan, "scanDuration")).as("one planning").isEqualTo(1L);
    }

    @Test
    void committerCountsTheRowsItMadeVisibleAsFlip33SinkMetrics() {
        sql("CREATE TABLE events (id INT, v STRING) WITH ('bucket' = '-1')");
        MetricsForTests.clear();
        sql("INSERT INTO events VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, 'd')");
        long bytes = count("SELECT SUM(file_size_in_bytes) FROM `events$files`");

        assertThat(operatorMetric("Committer", "numRecordsOut")).isEqualTo(4L);
        assertThat(operatorMetric("Committer", "numBytesOut")).isEqualTo(bytes);
    }

    @Test
    void committerReportsWhatTheExpirationAfterItsCommitDid() {
        sql("CREATE TABLE kept (id INT, v STRING) WITH ('bucket' = '-1', 'snapshot.num-retained.min' = '1', "
                + "'snapshot.num-retained.max' = '2')");
        for (int i = 0; i < 3; i++) {
            sql("INSERT INTO kept VALUES (%d, 'x')", i);
        }
        MetricsForTests.clear();
        sql("INSERT INTO kept VALUES (9, 'y')");

        // Snapshots 2 and 3 were kept; the fourth commit's expiration removed snapshot 2.
        assertThat(rows("SELECT snapshot_id FROM `kept$snapshots`")).containsExactlyInAnyOrder("+I[3]", "+I[4]");
        Map<String, Object> expiration = MetricsForTests.values(".paimon.table.kept.expiration.");
        assertThat(metric(expiration, "expiredSnapshotCount")).isEqualTo(1L);
        // Snapshot 2 alone used its manifest list(s); its data file stays (snapshots 3 and 4 still read it).
        assertThat(metric(expiration, "expiredFileCount")).isPositive();
        assertThat(metric(expiration, "expirationFailureCount")).isZero();
        assertThat(metric(expiration, "lastExpirationTime")).isPositive();
    }

    @Test
    void streamingWriteAndReadReportBuffersCompactionAndFreshness() throws Exception {
        sql("CREATE TABLE pk (k INT PRIMARY KEY NOT ENFORCED, v BIGINT) WITH ('bucket' = '2', "
                + "'write-buffer-size' = '1 mb', 'num-sorted-run.compaction-trigger' = '2')");
        sEnv.executeSql("CREATE TEMPORARY TABLE gen (k INT, v BIGINT) WITH ('connector' = 'datagen', "
                + "'rows-per-second' = '200', 'fields.k.min' = '0', 'fields.k.max' = '49')");
        TableResult writing = sEnv.executeSql("INSERT INTO pk SELECT k, v FROM gen");
        running.add(writing);
        TableResult reading = sEnv.executeSql("SELECT * FROM pk /*+ OPTIONS('scan.mode' = 'from-snapshot', "
                + "'scan.snapshot-id' = '1') */");
        running.add(reading);
        CloseableIterator<Row> rows = reading.collect();
        Thread drain = new Thread(() -> {
            while (rows.hasNext()) {
                rows.next();
            }
        }, "drain");
        drain.setDaemon(true);
        drain.start();

        // While the job writes: both buckets open, the 1 MiB buffer, compactions run and get committed.
        await().atMost(PATIENCE).pollInSameThread().untilAsserted(() -> {
            Map<String, Object> compaction = MetricsForTests.values(".paimon.table.pk.compaction.");
            assertThat(metric(compaction, "compactionCompletedCount")).isPositive();
            assertThat(snapshots("pk").stream().filter(x -> x.commitKind() == CommitKind.COMPACT)).isNotEmpty();
        });
        Map<String, Object> buffer = MetricsForTests.values(".paimon.table.pk.writerBuffer.");
        assertThat(metric(buffer, "numWriters")).isEqualTo(2L);
        assertThat(metric(buffer, "totalWriteBufferSizeByte")).isEqualTo(1024L * 1024);
        assertThat(metric(buffer, "usedWriteBufferSizeByte")).isBetween(0L, 1024L * 1024);
        Map<String, Object> compaction = MetricsForTests.values(".paimon.table.pk.compaction.");
        assertThat(metric(compaction, "compactionTotalCount"))
                .isGreaterThanOrEqualTo(metric(compaction, "compactionCompletedCount"));
        assertThat(metric(compaction, "maxSortedRunCount")).isPositive();
        assertThat(metric(compaction, "avgTotalFileSize")).isPositive();
        assertThat(metric(compaction, "maxCompactionOutputSize")).isPositive();

        writing.getJobClient().orElseThrow().cancel().get();
        // (Both slots are taken by the two jobs: the table's state is read through the storage API.)
        long lastAppend = snapshots("pk").stream().filter(x -> x.commitKind() == CommitKind.APPEND)
                .mapToLong(Snapshot::id).max().orElseThrow();
        long latest = snapshots("pk").stream().mapToLong(Snapshot::id).max().orElseThrow();
        // The reader catches up with the last snapshot: it planned the last one with changes, and is
        // behind by nothing.
        await().atMost(PATIENCE).pollInSameThread().untilAsserted(() -> {
            Map<String, Object> scan = MetricsForTests.values(".paimon.table.pk.scan.");
            assertThat(metric(scan, "lastScannedSnapshotId")).isEqualTo(lastAppend);
            assertThat(metric(scan, "snapshotsBehindLatest")).isZero();
            assertThat(metric(scan, "unreadSnapshotAge")).isZero();
        });
        assertThat(latest).isGreaterThanOrEqualTo(lastAppend);
        assertThat(operatorMetric("Source", "currentFetchEventTimeLag")).isGreaterThanOrEqualTo(0L);
        assertThat(operatorMetric("Source", "currentEmitEventTimeLag")).isGreaterThanOrEqualTo(0L);
    }

    @Test
    void lookupJoinCountsItsLookupsAndTheSnapshotItHolds() throws Exception {
        sql("CREATE TABLE dim (id INT PRIMARY KEY NOT ENFORCED, name STRING)");
        sql("INSERT INTO dim VALUES (1, 'one'), (2, 'two'), (3, 'three')");
        long latest = count("SELECT MAX(snapshot_id) FROM `dim$snapshots`");
        sEnv.executeSql("CREATE TEMPORARY VIEW p AS SELECT k, PROCTIME() AS proc FROM (VALUES (1), (2), (7), (2)) "
                + "AS v(k)");
        List<String> joined = new ArrayList<>();
        try (CloseableIterator<Row> it = sEnv.executeSql("SELECT p.k, d.name FROM p JOIN dim FOR SYSTEM_TIME AS OF "
                + "p.proc AS d ON p.k = d.id").collect()) {
            it.forEachRemaining(r -> joined.add(r.toString()));
        }
        assertThat(joined).hasSize(3);

        Map<String, Object> lookup = MetricsForTests.values(".paimon.table.dim.lookup.");
        assertThat(metric(lookup, "lookupCount")).isEqualTo(4L);
        assertThat(metric(lookup, "lookupHitCount")).isEqualTo(3L);
        assertThat(metric(lookup, "lookupMissCount")).isEqualTo(1L);
        assertThat(metric(lookup, "lookupRowCount")).isEqualTo(3L);
        assertThat(metric(lookup, "lastLoadedSnapshotId")).isEqualTo(latest);
    }

    private List<Snapshot> snapshots(String table) {
        Table t = storage().getTable(Identifier.of("default", table));
        List<Snapshot> out = new ArrayList<>();
        long latest = t.latestSnapshot().map(Snapshot::id).orElse(0L);
        for (long id = 1; id <= latest; id++) {
            t.snapshot(id).ifPresent(out::add);
        }
        return out;
    }

    private long count(String query) {
        List<String> out = rows(query);
        assertThat(out).hasSize(1);
        String value = out.get(0).replaceAll("^\\+I\\[|\\]$", "");
        return value.equals("null") ? 0 : Long.parseLong(value);
    }

    /** The single metric of {@code metrics} named {@code name}, as a number. */
    private static long metric(Map<String, Object> metrics, String name) {
        List<Object> values = metrics.entrySet().stream().filter(e -> e.getKey().endsWith("." + name))
                .map(Map.Entry::getValue).toList();
        assertThat(values).as(name + " in " + metrics.keySet()).hasSize(1);
        return ((Number) values.get(0)).longValue();
    }

    /** The metric {@code name} of the one operator whose name contains {@code operator}. */
    private static long operatorMetric(String operator, String name) {
        Map<String, Object> all = MetricsForTests.values("." + name);
        Map<String, Object> ofOperator = new java.util.TreeMap<>();
        all.forEach((id, v) -> {
            if (id.contains("." + operator) && id.endsWith("." + name)) {
                ofOperator.put(id, v);
            }
        });
        return metric(ofOperator, name);
    }
}
