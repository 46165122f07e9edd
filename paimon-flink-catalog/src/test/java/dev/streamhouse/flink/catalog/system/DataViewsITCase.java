package dev.streamhouse.flink.catalog.system;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.streamhouse.flink.catalog.testutils.CatalogITCaseBase;
import dev.streamhouse.flink.catalog.testutils.TestData;
import dev.streamhouse.storage.catalog.Identifier;
import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.table.Table;

import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The system tables that show a table's data, {@code t$audit_log}, {@code t$binlog} and {@code t$ro},
 * in Flink SQL, batch and streaming. Primary-key tables {@code (id INT, v STRING)}, one bucket, are
 * written through the storage API with row kinds:
 * <pre>
 *   snapshot 1: +I(1, a) +I(2, b) +I(3, c)
 *   snapshot 2: -U(1, a) +U(1, a2) -D(2, b) +U(4, d)
 * </pre>
 * Batch results are compared in any order (operators after the source run at parallelism 2, which
 * reorders rows); the order within a split is the storage tests' concern. Streaming reads run at
 * parallelism 1 and have a generous deadline as a hang guard only; nothing is timed.
 */
class DataViewsITCase extends CatalogITCaseBase {
    private static final int HANG_GUARD_SECONDS = 90;

    private final ExecutorService reader = Executors.newSingleThreadExecutor();
    private final List<TableResult> running = new ArrayList<>();

    @AfterEach
    void cancelJobs() {
        reader.shutdownNow();
        for (TableResult r : running) {
            r.getJobClient().ifPresent(c -> {
                try {
                    c.cancel().get();
                } catch (Exception e) {
                    // already finished or failed
                }
            });
        }
    }

    private static GenericRow row(RowKind kind, int id, String v) {
        return GenericRow.ofKind(kind, id, BinaryString.fromString(v));
    }

    private Table createPk(String name, String producer) throws Exception {
        sql("CREATE TABLE %s (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket' = '1', "
                + "'changelog-producer' = '%s', 'continuous.discovery-interval' = '100 ms')", name, producer);
        return storage().getTable(Identifier.of("default", name));
    }

    private Table twoSnapshots(String name, String producer) throws Exception {
        Table table = createPk(name, producer);
        TestData.commit(table, row(RowKind.INSERT, 1, "a"), row(RowKind.INSERT, 2, "b"), row(RowKind.INSERT, 3, "c"));
        secondSnapshot(table);
        return table;
    }

    private static void secondSnapshot(Table table) throws Exception {
        TestData.commit(table, row(RowKind.UPDATE_BEFORE, 1, "a"), row(RowKind.UPDATE_AFTER, 1, "a2"),
                row(RowKind.DELETE, 2, "b"), row(RowKind.UPDATE_AFTER, 4, "d"));
    }

    @Test
    void describeShowsPaimonsColumns() throws Exception {
        twoSnapshots("t", "none");
        // As Paimon 1.3.1's catalog describes them: rowkind nullable, no primary key on the change views.
        assertThat(rows("DESCRIBE `t$audit_log`")).containsExactly("+I[rowkind, STRING, true, null, null, null]",
                "+I[id, INT, false, null, null, null]", "+I[v, STRING, true, null, null, null]");
        assertThat(rows("DESCRIBE `t$binlog`")).containsExactly("+I[rowkind, STRING, true, null, null, null]",
                "+I[id, ARRAY<INT>, true, null, null, null]", "+I[v, ARRAY<STRING>, true, null, null, null]");
        assertThat(rows("DESCRIBE `t$ro`")).containsExactly("+I[id, INT, false, null, null, null]",
                "+I[v, STRING, true, null, null, null]");
    }

    @Test
    void auditLogInBatchShowsMergedRowsWithTheirKindsAndHonoursScanOptions() throws Exception {
        twoSnapshots("t", "none");
        assertThat(sortedRows("SELECT * FROM `t$audit_log`"))
                .containsExactly("+I[+I, 3, c]", "+I[+U, 1, a2]", "+I[+U, 4, d]", "+I[-D, 2, b]");
        assertThat(sortedRows("SELECT * FROM `t$audit_log` /*+ OPTIONS('scan.snapshot-id' = '1') */"))
                .containsExactly("+I[+I, 1, a]", "+I[+I, 2, b]", "+I[+I, 3, c]");
        assertThat(rows("SELECT * FROM `t$audit_log` /*+ OPTIONS('incremental-between' = '1,2') */"))
                .as("changelog-producer none: the data files, where the writer merged -U/+U of key 1")
                .containsExactlyInAnyOrder("+I[+U, 1, a2]", "+I[-D, 2, b]", "+I[+U, 4, d]");
        assertThat(rows("SELECT * FROM `t$audit_log` /*+ OPTIONS('scan.mode' = 'incremental', "
                + "'incremental-between' = '1,2') */"))
                .as("scan mode incremental reads what 'incremental-between' names")
                .containsExactlyInAnyOrder("+I[+U, 1, a2]", "+I[-D, 2, b]", "+I[+U, 4, d]");
        assertThat(rows("SELECT id, rowkind FROM `t$audit_log` WHERE rowkind = '-D'")).containsExactly("+I[2, -D]");
        assertThat(sortedRows("SELECT rowkind, COUNT(*) FROM `t$audit_log` GROUP BY rowkind"))
                .containsExactly("+I[+I, 1]", "+I[+U, 2]", "+I[-D, 1]");
        assertThat(rows("SELECT COUNT(*) FROM `t$audit_log`")).containsExactly("+I[4]");
    }

    @Test
    void auditLogOfAnInputChangelogShowsEveryChange() throws Exception {
        twoSnapshots("t", "input");
        assertThat(rows("SELECT v, rowkind FROM `t$audit_log` /*+ OPTIONS('incremental-between' = '1,2') */"))
                .containsExactlyInAnyOrder("+I[a, -U]", "+I[a2, +U]", "+I[b, -D]", "+I[d, +U]");
        assertThat(rows("SELECT * FROM `t$audit_log` /*+ OPTIONS('incremental-between' = '1,2') */ "
                + "WHERE rowkind <> '+U' AND id > 1")).containsExactly("+I[-D, 2, b]");
    }

    @Test
    void binlogPacksUpdates() throws Exception {
        twoSnapshots("t", "input");
        assertThat(rows("SELECT * FROM `t$binlog` /*+ OPTIONS('incremental-between' = '1,2') */"))
                .containsExactlyInAnyOrder("+I[+U, [1, 1], [a, a2]]", "+I[-D, [2], [b]]", "+I[+U, [4], [d]]");
        assertThat(rows("SELECT v FROM `t$binlog` /*+ OPTIONS('incremental-between' = '1,2') */ WHERE rowkind = '+U'"))
                .containsExactlyInAnyOrder("+I[[a, a2]]", "+I[[d]]");
        assertThat(sortedRows("SELECT * FROM `t$binlog`"))
                .containsExactly("+I[+I, [3], [c]]", "+I[+U, [1], [a2]]", "+I[+U, [4], [d]]", "+I[-D, [2], [b]]");
    }

    @Test
    void readOptimizedViewShowsWhatFullCompactionWrote() throws Exception {
        Table t = twoSnapshots("t", "none");
        assertThat(rows("SELECT * FROM `t$ro`")).as("nothing compacted yet").isEmpty();
        rows("CALL sys.compact(`table` => 'default.t', compact_strategy => 'full')");
        assertThat(sortedRows("SELECT * FROM `t$ro`")).containsExactly("+I[1, a2]", "+I[3, c]", "+I[4, d]");
        TestData.commit(t, row(RowKind.INSERT, 5, "e"), row(RowKind.UPDATE_AFTER, 3, "c3"));
        assertThat(sortedRows("SELECT * FROM `t$ro`")).as("lags behind until the next full compaction")
                .containsExactly("+I[1, a2]", "+I[3, c]", "+I[4, d]");
        assertThat(sortedRows("SELECT * FROM `t$ro` WHERE id > 1")).containsExactly("+I[3, c]", "+I[4, d]");
        assertThat(sortedRows("SELECT * FROM t")).as("merged on read: each key with its latest version's kind")
                .containsExactly("+I[5, e]", "+U[1, a2]", "+U[3, c3]", "+U[4, d]");

        sql("CREATE TABLE logs (msg STRING)");
        sql("INSERT INTO logs VALUES ('x'), ('y')");
        assertThat(sortedRows("SELECT * FROM `logs$ro`")).as("an append table's view is the table")
                .containsExactly("+I[x]", "+I[y]");
    }

    @Test
    void refusalsFollowTheSystemTablePattern() throws Exception {
        twoSnapshots("t", "none");
        assertThatThrownBy(() -> rows("SELECT * FROM `t$nope`"))
                .hasStackTraceContaining("<table>$audit_log, <table>$binlog, <table>$ro");
        assertThatThrownBy(() -> sql("INSERT INTO `t$audit_log` VALUES ('+I', 1, 'x')"))
                .hasStackTraceContaining("system tables are read-only");
        assertThatThrownBy(() -> rows("SELECT * FROM `t$audit_log` /*+ OPTIONS('scan.snapshot-id' = 'one') */"))
                .hasStackTraceContaining("scan.snapshot-id");
        assertThatThrownBy(() -> rows("SELECT * FROM `t$files` /*+ OPTIONS('scan.mode' = 'latest') */"))
                .hasStackTraceContaining("read a data view (<table>$audit_log, <table>$binlog, <table>$ro)");
        sql("CREATE TEMPORARY TABLE probe (k INT, pt AS PROCTIME()) WITH ('connector' = 'datagen', "
                + "'number-of-rows' = '3', 'fields.k.min' = '1', 'fields.k.max' = '3')");
        for (String view : List.of("t$audit_log", "t$ro")) {
            assertThatThrownBy(() -> rows("SELECT d.* FROM probe JOIN `" + view + "` FOR SYSTEM_TIME AS OF probe.pt "
                    + "AS d ON probe.k = d.id"))
                    .hasStackTraceContaining("Cannot look up rows of system table default.t$" + view.substring(2));
        }
    }

    // ------------------------------------------------------------------ streaming

    private TableEnvironment streamingEnvironment() {
        TableEnvironment sEnv = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        sEnv.getConfig().set("parallelism.default", "1");
        sEnv.executeSql(createCatalogStatement(Map.of()));
        sEnv.useCatalog(CATALOG);
        return sEnv;
    }

    private CloseableIterator<Row> follow(TableEnvironment sEnv, String query) {
        TableResult result = sEnv.executeSql(query);
        running.add(result);
        return result.collect();
    }

    /** The next {@code n} rows of a streaming query; fails if they do not arrive before the hang guard. */
    private List<String> take(CloseableIterator<Row> it, int n) throws Exception {
        List<String> out = Collections.synchronizedList(new ArrayList<>());
        Future<?> reading = reader.submit(() -> {
            while (out.size() < n && it.hasNext()) {
                out.add(it.next().toString());
            }
        });
        try {
            reading.get(HANG_GUARD_SECONDS, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError("Expected " + n + " rows of the streaming query, got only " + out, e);
        }
        return new ArrayList<>(out);
    }

    @Test
    void streamingAuditLogOfAnInputChangelogEmitsEveryChangeAsAnInsert() throws Exception {
        Table t = createPk("t", "input");
        TestData.commit(t, row(RowKind.INSERT, 1, "a"), row(RowKind.INSERT, 2, "b"), row(RowKind.INSERT, 3, "c"));
        TableEnvironment sEnv = streamingEnvironment();
        assertThat(sEnv.explainSql("SELECT * FROM `t$audit_log`")).doesNotContain("ChangelogNormalize");
        try (CloseableIterator<Row> it = follow(sEnv, "SELECT * FROM `t$audit_log`")) {
            assertThat(take(it, 3)).as("latest-full: the snapshot first")
                    .containsExactlyInAnyOrder("+I[+I, 1, a]", "+I[+I, 2, b]", "+I[+I, 3, c]");
            secondSnapshot(t);
            assertThat(take(it, 4)).containsExactly("+I[-U, 1, a]", "+I[+U, 1, a2]", "+I[-D, 2, b]", "+I[+U, 4, d]");
        }
    }

    @Test
    void streamingAuditLogWithoutChangelogProducerEmitsTheNewDataFiles() throws Exception {
        twoSnapshots("t", "none");
        TableEnvironment sEnv = streamingEnvironment();
        try (CloseableIterator<Row> it = follow(sEnv, "SELECT rowkind, id FROM `t$audit_log` "
                + "/*+ OPTIONS('scan.mode' = 'from-snapshot', 'scan.snapshot-id' = '2') */ WHERE id <> 3")) {
            assertThat(take(it, 3)).containsExactly("+I[+U, 1]", "+I[-D, 2]", "+I[+U, 4]");
        }
    }

    @Test
    void streamingBinlogPacksUpdatesAndTheReadOptimizedViewRefusesStreaming() throws Exception {
        twoSnapshots("t", "input");
        TableEnvironment sEnv = streamingEnvironment();
        try (CloseableIterator<Row> it = follow(sEnv,
                "SELECT * FROM `t$binlog` /*+ OPTIONS('scan.mode' = 'from-snapshot', 'scan.snapshot-id' = '2') */")) {
            assertThat(take(it, 3)).containsExactly("+I[+U, [1, 1], [a, a2]]", "+I[-D, [2], [b]]", "+I[+U, [4], [d]]");
        }
        assertThatThrownBy(() -> sEnv.explainSql("SELECT * FROM `t$ro`"))
                .hasStackTraceContaining("Cannot stream-read only level 5 of table default.t (its read-optimized view)");
        sEnv.executeSql("CREATE TABLE logs (msg STRING) WITH ('continuous.discovery-interval' = '100 ms')").await();
        sEnv.executeSql("INSERT INTO logs VALUES ('x')").await();
        try (CloseableIterator<Row> it = follow(sEnv, "SELECT * FROM `logs$ro`")) {
            assertThat(take(it, 1)).as("an append table's view streams like the table").containsExactly("+I[x]");
        }
    }
}
