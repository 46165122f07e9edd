package dev.streamhouse.flink.procedure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.streamhouse.flink.catalog.testutils.CatalogITCaseBase;
import dev.streamhouse.storage.catalog.Identifier;
import dev.streamhouse.storage.snapshot.Snapshot;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.functions.ScalarFunction;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

/**
 * {@code CALL sys.optimize} at each level on a fragmented table (exact contents after each), and beside
 * a running streaming writer that fails once and restarts from its checkpoint (exact contents at the
 * end).
 */
class OptimizeProcedureITCase extends CatalogITCaseBase {
    private static final int HANG_GUARD_SECONDS = 180;

    private final List<TableResult> running = new ArrayList<>();

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

    /** Rows of {@code CALL sys.optimize}, as {@code Row.toString()}. */
    private List<String> optimize(String level) {
        return rows("CALL sys.optimize('default.t', '%s')", level);
    }

    private List<String> checks() {
        return sortedRows("SELECT check_name FROM `t$table_health`").stream()
                .map(r -> r.substring(3, r.length() - 1)).distinct().collect(Collectors.toList());
    }

    /**
     * A fragmented table: partition {@code a} with level-0 files past the compaction trigger in both
     * buckets, partition {@code b} compacted and then mostly deleted, eight snapshots where five are
     * the maximum.
     */
    private List<String> fragmentedTable() {
        sql("CREATE TABLE t (id INT, v STRING, dt STRING, PRIMARY KEY (id, dt) NOT ENFORCED) PARTITIONED BY (dt)"
                + " WITH ('bucket' = '2', 'write-only' = 'true', 'num-sorted-run.compaction-trigger' = '3',"
                + " 'snapshot.num-retained.min' = '1', 'snapshot.num-retained.max' = '5')");
        for (int i = 0; i < 4; i++) {
            sql("INSERT INTO t VALUES " + IntStream.range(0, 8).mapToObj(k -> "(" + k + ", 'a" + k + "'," +
                    " 'a')").collect(Collectors.joining(", ")).replace("'a" , "'a").replace(", 'a')", ", 'a')"));
        }
        sql("INSERT INTO t VALUES " + IntStream.range(0, 10).mapToObj(k -> "(" + k + ", 'b" + k + "', 'b')")
                .collect(Collectors.joining(", ")));
        rows("CALL sys.compact(`table` => 'default.t', partitions => 'dt=b')");
        sql("DELETE FROM t WHERE dt = 'b' AND id < 6");
        List<String> expected = new ArrayList<>();
        IntStream.range(0, 8).forEach(k -> expected.add("+I[" + k + ", a" + k + ", a]"));
        IntStream.range(6, 10).forEach(k -> expected.add("+I[" + k + ", b" + k + ", b]"));
        expected.sort(null);
        return expected;
    }

    @Test
    void eachLevelOnAFragmentedTableFixesWhatItPromisesAndKeepsEveryRow() throws Exception {
        List<String> expected = fragmentedTable();
        assertThat(sortedRows("SELECT * FROM t")).isEqualTo(expected);
        assertThat(checks()).contains("level0_files", "deleted_rows", "snapshots_retained");

        List<String> light = optimize("light");
        assertThat(light).anySatisfy(r -> assertThat(r).startsWith("+I[before, MEDIUM, level0_files, partition=dt=a"));
        assertThat(light).anySatisfy(r -> assertThat(r).startsWith("+I[action, null, compact, 2 buckets, null, null, minor: "));
        assertThat(light).anySatisfy(r -> assertThat(r).startsWith("+I[action, null, expire_snapshots, table, null, null, "));
        assertThat(light).noneMatch(r -> r.startsWith("+I[after") && (r.contains("level0_files")
                || r.contains("snapshots_retained")));
        assertThat(checks()).doesNotContain("level0_files", "snapshots_retained").contains("deleted_rows");
        assertThat(sortedRows("SELECT * FROM t")).isEqualTo(expected);
        // several levels now: $levels agrees with $files, sizes and deleted rows included
        assertThat(sortedRows("SELECT DISTINCT level FROM `t$files`")).hasSizeGreaterThan(1);
        assertThat(sortedRows("SELECT `partition`, bucket, level, file_count, record_count, file_size_in_bytes,"
                + " min_file_size, avg_file_size, max_file_size, deleted_record_count FROM `t$levels`"))
                .isEqualTo(sortedRows("SELECT `partition`, bucket, level, COUNT(*), SUM(record_count),"
                        + " SUM(file_size_in_bytes), MIN(file_size_in_bytes), SUM(file_size_in_bytes) / COUNT(*),"
                        + " MAX(file_size_in_bytes), SUM(deleteRowCount) FROM `t$files` GROUP BY `partition`, bucket, level"));

        List<String> moderate = optimize("moderate");
        assertThat(moderate).anySatisfy(r -> assertThat(r).startsWith("+I[action, null, compact, ")
                .contains("full: compacted"));
        assertThat(checks()).doesNotContain("deleted_rows");
        assertThat(sortedRows("SELECT * FROM t")).isEqualTo(expected);

        // an orphan: a data file no snapshot references, two days old
        Path bucketDir;
        try (Stream<Path> dirs = Files.walk(warehouse)) {
            bucketDir = dirs.filter(p -> p.getFileName().toString().equals("bucket-0")).findFirst().orElseThrow();
        }
        File orphan = bucketDir.resolve("data-orphan-0.parquet").toFile();
        Files.writeString(orphan.toPath(), "not referenced");
        assertThat(orphan.setLastModified(System.currentTimeMillis() - TimeUnit.DAYS.toMillis(2))).isTrue();

        List<String> full = optimize("full");
        assertThat(full).anySatisfy(r -> assertThat(r).startsWith("+I[action, null, compact, 4 buckets, null, null, full: "));
        assertThat(full).contains("+I[action, null, remove_orphan_files, table, null, null, 1 files (14 bytes) removed]");
        assertThat(full).noneMatch(r -> r.startsWith("+I[after"));
        assertThat(orphan).doesNotExist();
        assertThat(checks()).isEmpty();
        // num-sorted-run.compaction-trigger 3: four levels, the last one is 3
        assertThat(sortedRows("SELECT DISTINCT level FROM `t$files`")).containsExactly("+I[3]");
        assertThat(sortedRows("SELECT * FROM t")).isEqualTo(expected);
        // $levels agrees with $files
        assertThat(sortedRows("SELECT `partition`, bucket, level, file_count, record_count, file_size_in_bytes"
                + " FROM `t$levels`")).isEqualTo(sortedRows("SELECT `partition`, bucket, level, COUNT(*),"
                + " SUM(record_count), SUM(file_size_in_bytes) FROM `t$files` GROUP BY `partition`, bucket, level"));
    }

    @Test
    void aHealthyTableIsLeftAsItIs() {
        sql("CREATE TABLE t (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket' = '1')");
        sql("INSERT INTO t VALUES (1, 'a')");
        assertThat(optimize("moderate")).containsExactly(
                "+I[action, null, compact, table, null, null, no bucket needs compaction]",
                "+I[action, null, expire_snapshots, table, null, null, 0 snapshots expired]");
        assertThat(rows("CALL sys.optimize(`table` => 'default.t')")).hasSize(2);
        assertThatThrownBy(() -> optimize("most")).hasStackTraceContaining(
                "CALL sys.optimize: cannot read argument 'level' = 'most': expected 'light', 'moderate' or 'full'");
    }

    /** Fails the first attempt of the streaming job once it writes row {@link #FAIL_AT}, so it restarts from its checkpoint. */
    public static class FailOnce extends ScalarFunction {
        static final AtomicBoolean FAILED = new AtomicBoolean();

        public Integer eval(Integer id) {
            if (id != null && id == FAIL_AT && FAILED.compareAndSet(false, true)) {
                throw new IllegalStateException("injected failure at row " + id);
            }
            return id;
        }
    }

    private static final int ROWS = 3000;
    private static final int FAIL_AT = 1200;

    /**
     * A streaming job writes ids 1..{@link #ROWS} into {@code t} (created with {@code tableOptions}) while
     * optimize runs light, moderate and full in turn; the job fails once at {@link #FAIL_AT} and may not
     * fail again (one restart allowed). Returns the compaction actions of the optimize calls.
     */
    private List<String> optimizeBesideAStreamingWriter(String tableOptions) throws Exception {
        sql("CREATE TABLE t (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket' = '2',"
                + " 'num-sorted-run.compaction-trigger' = '2', 'snapshot.num-retained.min' = '2',"
                + " 'snapshot.num-retained.max' = '4'" + tableOptions + ")");
        FailOnce.FAILED.set(false);
        TableEnvironment sEnv = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        sEnv.getConfig().set("parallelism.default", "1");
        sEnv.getConfig().set("execution.checkpointing.interval", "300 ms");
        sEnv.getConfig().set("restart-strategy.type", "fixed-delay");
        sEnv.getConfig().set("restart-strategy.fixed-delay.attempts", "1");
        sEnv.getConfig().set("restart-strategy.fixed-delay.delay", "200 ms");
        sEnv.executeSql(createCatalogStatement(Map.of()));
        sEnv.useCatalog(CATALOG);
        sEnv.createTemporarySystemFunction("fail_once", FailOnce.class);
        sEnv.executeSql("CREATE TEMPORARY TABLE gen (id INT) WITH ('connector' = 'datagen',"
                + " 'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '" + ROWS + "',"
                + " 'rows-per-second' = '400')");
        TableResult job = sEnv.executeSql("INSERT INTO t SELECT fail_once(id), CONCAT('v', CAST(id AS STRING))"
                + " FROM gen");
        running.add(job);

        List<String> outcomes = new ArrayList<>();
        String[] levels = {"light", "moderate", "full"};
        int calls = 0;
        while (!jobEnded(job)) {
            for (String r : optimize(levels[calls++ % levels.length])) {
                if (r.startsWith("+I[action, null, compact")) {
                    outcomes.add(r);
                }
            }
            // The next call once the writer committed again (or ended), not after a fixed pause.
            long seen = latestSnapshotId();
            await().atMost(Duration.ofSeconds(HANG_GUARD_SECONDS)).pollInSameThread()
                    .until(() -> jobEnded(job) || latestSnapshotId() > seen);
        }
        job.await(HANG_GUARD_SECONDS, TimeUnit.SECONDS);

        assertThat(FailOnce.FAILED).as("the failure was injected").isTrue();
        assertThat(calls).as("optimize ran while the writer was running").isGreaterThan(2);
        assertThat(rows("SELECT COUNT(*), COUNT(DISTINCT id), MIN(id), MAX(id), SUM(CAST(id AS BIGINT)) FROM t"))
                .containsExactly("+I[" + ROWS + ", " + ROWS + ", 1, " + ROWS + ", " + (long) ROWS * (ROWS + 1) / 2 + "]");
        assertThat(rows("SELECT COUNT(*) FROM t WHERE v <> CONCAT('v', CAST(id AS STRING))")).containsExactly("+I[0]");
        return outcomes;
    }

    private static boolean jobEnded(TableResult job) throws Exception {
        return job.getJobClient().orElseThrow().getJobStatus().get().isTerminalState();
    }

    private long latestSnapshotId() {
        return storage().getTable(Identifier.of("default", "t")).latestSnapshot().map(Snapshot::id).orElse(0L);
    }

    @Test
    void besideAWriteOnlyStreamingWriterThatFailsOverItCompactsAndNoRowIsLostOrDuplicated() throws Exception {
        List<String> outcomes = optimizeBesideAStreamingWriter(", 'write-only' = 'true'");
        assertThat(outcomes).anySatisfy(r -> assertThat(r).contains("compacted"));
        assertThat(outcomes).noneMatch(r -> r.contains("skipped"));
        rows("CALL sys.optimize('default.t', 'full')");
        // num-sorted-run.compaction-trigger 2: three levels, the last one is 2
        assertThat(sortedRows("SELECT DISTINCT level FROM `t$files`")).containsExactly("+I[2]");
    }

    @Test
    void besideAStreamingWriterThatCompactsItselfItLeavesCompactionToTheWriter() throws Exception {
        List<String> outcomes = optimizeBesideAStreamingWriter("");
        assertThat(outcomes).anySatisfy(r -> assertThat(r).contains("skipped: a streaming writer (commit user ")
                .contains("set 'write-only' = 'true' for the writers to optimize beside them"));
        assertThat(outcomes).noneMatch(r -> r.contains("compacted"));
    }
}
