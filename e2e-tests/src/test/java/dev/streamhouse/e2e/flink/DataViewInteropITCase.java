package dev.streamhouse.e2e.flink;

import dev.streamhouse.e2e.oracle.CanonicalRow;
import dev.streamhouse.e2e.oracle.CanonicalRow.Kind;
import dev.streamhouse.e2e.oracle.PaimonOracle;
import dev.streamhouse.e2e.oracle.TableSpec;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.apache.paimon.catalog.CatalogContext;
import org.apache.paimon.flink.FlinkCatalogFactory;
import org.apache.paimon.options.Options;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code t$audit_log}, {@code t$binlog} and {@code t$ro} read through our catalog give the rows
 * Apache Paimon 1.3.1's own Flink catalog reads from the same warehouse ({@link TwoCatalogs}), for a
 * deduplicate primary-key table (changelog producer {@code input} and {@code none}) and an append
 * table, in batch (latest, time travel, {@code incremental-between}, filters) and streaming. Paimon
 * writes the tables with row kinds:
 * <pre>
 *   snapshot 1: +I(1, a) +I(2, b) +I(3, c)
 *   snapshot 2: -U(1, a) +U(1, a2) -D(2, b) +U(4, d)
 * </pre>
 * Rows of a batch query are compared as sorted lists (their order across tasks is not defined).
 */
class DataViewInteropITCase {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = new MiniClusterExtension();

    private static final int HANG_GUARD_SECONDS = 90;

    @TempDir
    Path warehouse;

    private TableEnvironment tEnv;
    private PaimonOracle paimon;
    private final ExecutorService reader = Executors.newSingleThreadExecutor();
    private final List<TableResult> running = new ArrayList<>();

    @BeforeEach
    void open() {
        tEnv = TwoCatalogs.open(warehouse);
        paimon = new PaimonOracle(warehouse);
    }

    @AfterEach
    void close() throws Exception {
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
        paimon.close();
    }

    private void twoSnapshots(String table, TableSpec spec) {
        paimon.createTable("default", table, spec);
        paimon.write("default", table, List.of(CanonicalRow.of(1, "a"), CanonicalRow.of(2, "b"), CanonicalRow.of(3, "c")));
        if (spec.primaryKeys().isEmpty()) {
            paimon.write("default", table, List.of(CanonicalRow.of(4, "d")));
        } else {
            paimon.write("default", table, List.of(CanonicalRow.ofKind(Kind.UPDATE_BEFORE, 1, "a"),
                    CanonicalRow.ofKind(Kind.UPDATE_AFTER, 1, "a2"), CanonicalRow.ofKind(Kind.DELETE, 2, "b"),
                    CanonicalRow.ofKind(Kind.UPDATE_AFTER, 4, "d")));
        }
    }

    private static TableSpec pk(String producer) {
        return TableSpec.of("id", "INT", "v", "STRING").withPrimaryKeys("id").withOption("bucket", "1")
                .withOption("changelog-producer", producer);
    }

    private static List<String> sorted(TableEnvironment env, String query) throws Exception {
        List<String> out = new ArrayList<>();
        try (CloseableIterator<Row> it = env.executeSql(query).collect()) {
            it.forEachRemaining(r -> out.add(r.toString()));
        }
        out.sort(null);
        return out;
    }

    /**
     * The rows of {@code query} (with {@code %s} for the catalog) through our catalog, checked equal to
     * those through Paimon's, and returned.
     */
    private List<String> same(String query) throws Exception {
        List<String> ours = sorted(tEnv, String.format(query, "ours"));
        assertThat(ours).as("our rows of " + query + " are Paimon's").isEqualTo(sorted(tEnv, String.format(query, "theirs")));
        return ours;
    }

    @Test
    void columnsAreDescribedAlike() throws Exception {
        twoSnapshots("t", pk("none"));
        for (String view : List.of("t$audit_log", "t$binlog", "t$ro")) {
            same("DESCRIBE %s.`default`.`" + view + "`");
        }
    }

    @Test
    void auditLogOfAPrimaryKeyTableWithInputChangelog() throws Exception {
        twoSnapshots("t", pk("input"));
        assertThat(same("SELECT * FROM %s.`default`.`t$audit_log`")).as("merged rows keep their kinds, -D included")
                .containsExactly("+I[+I, 3, c]", "+I[+U, 1, a2]", "+I[+U, 4, d]", "+I[-D, 2, b]");
        same("SELECT * FROM %s.`default`.`t$audit_log` /*+ OPTIONS('scan.snapshot-id' = '1') */");
        assertThat(same("SELECT * FROM %s.`default`.`t$audit_log` /*+ OPTIONS('incremental-between' = '1,2') */"))
                .hasSize(4);
        same("SELECT v, rowkind FROM %s.`default`.`t$audit_log` /*+ OPTIONS('incremental-between' = '1,2') */ "
                + "WHERE rowkind <> '+I' AND id > 1");
        same("SELECT rowkind, COUNT(*) FROM %s.`default`.`t$audit_log` GROUP BY rowkind");
    }

    @Test
    void auditLogOfAPrimaryKeyTableWithoutChangelogProducer() throws Exception {
        twoSnapshots("t", pk("none"));
        same("SELECT * FROM %s.`default`.`t$audit_log`");
        assertThat(same("SELECT * FROM %s.`default`.`t$audit_log` /*+ OPTIONS('incremental-between' = '1,2') */"))
                .containsExactly("+I[+U, 1, a2]", "+I[+U, 4, d]", "+I[-D, 2, b]");
        same("SELECT id FROM %s.`default`.`t$audit_log` WHERE rowkind = '-D'");
        assertThat(same("SELECT * FROM %s.`default`.`t$audit_log` /*+ OPTIONS('scan.mode' = 'incremental', "
                + "'incremental-between' = '1,2') */")).as("scan mode incremental, as the seeds write it")
                .containsExactly("+I[+U, 1, a2]", "+I[+U, 4, d]", "+I[-D, 2, b]");
    }

    @Test
    void binlogOfAPrimaryKeyTable() throws Exception {
        twoSnapshots("t", pk("input"));
        same("SELECT * FROM %s.`default`.`t$binlog`");
        assertThat(same("SELECT * FROM %s.`default`.`t$binlog` /*+ OPTIONS('incremental-between' = '1,2') */"))
                .contains("+I[+U, [1, 1], [a, a2]]");
        same("SELECT v FROM %s.`default`.`t$binlog` /*+ OPTIONS('incremental-between' = '1,2') */ WHERE rowkind = '+U'");
        twoSnapshots("n", pk("none"));
        same("SELECT * FROM %s.`default`.`n$binlog` /*+ OPTIONS('incremental-between' = '1,2') */");
    }

    @Test
    void readOptimizedViewBeforeAndAfterFullCompactionByEitherStore() throws Exception {
        twoSnapshots("t", pk("none"));
        assertThat(same("SELECT * FROM %s.`default`.`t$ro`")).isEmpty();
        paimon.compactAll("default", "t", true);
        paimon.write("default", "t", List.of(CanonicalRow.of(5, "e"), CanonicalRow.of(3, "c3")));
        assertThat(same("SELECT * FROM %s.`default`.`t$ro`")).containsExactly("+I[1, a2]", "+I[3, c]", "+I[4, d]");
        same("SELECT * FROM %s.`default`.`t$ro` /*+ OPTIONS('scan.snapshot-id' = '2') */");

        twoSnapshots("u", pk("input").withOption("num-levels", "3"));
        tEnv.executeSql("CALL ours.sys.compact(`table` => 'default.u', compact_strategy => 'full')").await();
        paimon.write("default", "u", List.of(CanonicalRow.of(5, "e")));
        assertThat(same("SELECT * FROM %s.`default`.`u$ro`")).as("our full compaction writes Paimon's top level")
                .containsExactly("+I[1, a2]", "+I[3, c]", "+I[4, d]");
    }

    @Test
    void allThreeViewsOfAnAppendTable() throws Exception {
        twoSnapshots("logs", TableSpec.of("id", "INT", "v", "STRING"));
        assertThat(same("SELECT * FROM %s.`default`.`logs$audit_log`")).hasSize(4).allMatch(r -> r.startsWith("+I[+I, "));
        same("SELECT * FROM %s.`default`.`logs$binlog`");
        same("SELECT * FROM %s.`default`.`logs$ro` WHERE id > 1");
        same("SELECT * FROM %s.`default`.`logs$audit_log` /*+ OPTIONS('incremental-between' = '1,2') */");
    }

    // ------------------------------------------------------------------ streaming

    /** The first {@code n} rows of a streaming query; fails if they do not arrive before the hang guard. */
    private List<String> take(TableEnvironment env, String query, int n) throws Exception {
        TableResult result = env.executeSql(query);
        running.add(result);
        List<String> out = Collections.synchronizedList(new ArrayList<>());
        try (CloseableIterator<Row> it = result.collect()) {
            Future<?> reading = reader.submit(() -> {
                while (out.size() < n && it.hasNext()) {
                    out.add(it.next().toString());
                }
            });
            try {
                reading.get(HANG_GUARD_SECONDS, TimeUnit.SECONDS);
            } catch (TimeoutException e) {
                throw new AssertionError("Expected " + n + " rows of " + query + ", got only " + out, e);
            }
        }
        return new ArrayList<>(out);
    }

    @Test
    void streamingReadsOfTheChangeViewsAgreeAndTheReadOptimizedViewIsRefusedByBoth() throws Exception {
        twoSnapshots("t", pk("input"));
        TableEnvironment sEnv = TableEnvironment.create(EnvironmentSettings.newInstance().inStreamingMode()
                .withClassLoader(new WithoutPaimonFactories(getClass().getClassLoader())).build());
        sEnv.getConfig().set("parallelism.default", "1");
        sEnv.executeSql("CREATE CATALOG ours WITH ('type' = 'paimon', 'warehouse' = '" + warehouse.toUri() + "')");
        sEnv.registerCatalog("theirs", FlinkCatalogFactory.createCatalog("theirs",
                CatalogContext.create(Options.fromMap(Map.of("warehouse", warehouse.toUri().toString()))),
                getClass().getClassLoader()));
        String hints = " /*+ OPTIONS('scan.mode' = 'from-snapshot', 'scan.snapshot-id' = '2') */";
        for (String query : List.of("SELECT * FROM %s.`default`.`t$audit_log`" + hints,
                "SELECT * FROM %s.`default`.`t$binlog`" + hints,
                "SELECT * FROM %s.`default`.`t$audit_log`")) {
            int n = query.contains("binlog") ? 3 : 4;
            List<String> theirs = take(sEnv, String.format(query, "theirs"), n);
            assertThat(take(sEnv, String.format(query, "ours"), n)).as(query).isEqualTo(theirs);
        }
        assertThatThrownBy(() -> take(sEnv, "SELECT * FROM theirs.`default`.`t$ro`", 1))
                .hasStackTraceContaining("Unsupported streaming scan for read optimized table");
        assertThatThrownBy(() -> sEnv.explainSql("SELECT * FROM ours.`default`.`t$ro`"))
                .hasStackTraceContaining("read-optimized view");
    }
}
