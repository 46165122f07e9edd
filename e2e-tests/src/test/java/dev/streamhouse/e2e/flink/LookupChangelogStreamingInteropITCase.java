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
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A streaming SQL read through our catalog of tables Apache Paimon 1.3.1 wrote with
 * {@code changelog-producer} = lookup emits their changelog as it is, without Flink's normalize step,
 * exactly as a read through Paimon's own Flink catalog ({@link TwoCatalogs}) does: the same changes,
 * with kinds, in order per key; first-row tables only insert. A read that starts with a full snapshot
 * leaves level-0 files out of it, as Paimon's does.
 */
class LookupChangelogStreamingInteropITCase {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = new MiniClusterExtension();

    private static final int HANG_GUARD_SECONDS = 90;
    /** From the first snapshot on; one reader, as the mini cluster has one slot (else one per bucket). */
    private static final String FROM_THE_START = " /*+ OPTIONS('scan.mode' = 'from-snapshot', "
            + "'scan.snapshot-id' = '1', 'scan.parallelism' = '1') */";

    @TempDir
    Path warehouse;

    private TableEnvironment sEnv;
    private PaimonOracle paimon;
    private final ExecutorService reader = Executors.newSingleThreadExecutor();
    private final List<TableResult> running = new ArrayList<>();

    @BeforeEach
    void open() {
        paimon = new PaimonOracle(warehouse);
        sEnv = TableEnvironment.create(EnvironmentSettings.newInstance().inStreamingMode()
                .withClassLoader(new WithoutPaimonFactories(getClass().getClassLoader())).build());
        sEnv.getConfig().set("parallelism.default", "1");
        sEnv.executeSql("CREATE CATALOG ours WITH ('type' = 'paimon', 'warehouse' = '" + warehouse.toUri() + "')");
        sEnv.registerCatalog("theirs", FlinkCatalogFactory.createCatalog("theirs",
                CatalogContext.create(Options.fromMap(Map.of("warehouse", warehouse.toUri().toString()))),
                getClass().getClassLoader()));
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

    /** Paimon writes {@code commits} commits of random upserts, retractions and deletes over 20 keys. */
    private void paimonWrites(String table, TableSpec spec, int commits, boolean retractions) {
        paimon.createTable("default", table, spec);
        Random random = new Random(table.hashCode());
        Map<Integer, CanonicalRow> written = new TreeMap<>();
        for (int c = 0; c < commits; c++) {
            List<CanonicalRow> rows = new ArrayList<>();
            for (int i = 0; i < 15; i++) {
                int id = random.nextInt(20);
                CanonicalRow next = CanonicalRow.of(id, (long) random.nextInt(100), "v" + random.nextInt(100));
                CanonicalRow old = written.get(id);
                if (old != null && retractions && random.nextInt(4) == 0) {
                    rows.add(old.withKind(random.nextBoolean() ? Kind.DELETE : Kind.UPDATE_BEFORE));
                    written.remove(id);
                } else {
                    rows.add(old == null ? next : next.withKind(Kind.UPDATE_AFTER));
                    written.put(id, next);
                }
            }
            paimon.write("default", table, rows);
        }
    }

    private static TableSpec spec(String... options) {
        TableSpec spec = TableSpec.of("id", "INT", "n", "BIGINT", "s", "STRING").withPrimaryKeys("id")
                .withOption("bucket", "2").withOption("changelog-producer", "lookup")
                .withOption("num-sorted-run.compaction-trigger", "3");
        for (int i = 0; i < options.length; i += 2) {
            spec = spec.withOption(options[i], options[i + 1]);
        }
        return spec;
    }

    /**
     * The first {@code n} rows of a streaming query, whose job is then cancelled; fails if they do not
     * arrive before the hang guard.
     */
    private List<Row> take(String query, int n) throws Exception {
        TableResult result = sEnv.executeSql(query);
        running.add(result);
        List<Row> out = Collections.synchronizedList(new ArrayList<>());
        try (CloseableIterator<Row> it = result.collect()) {
            Future<?> reading = reader.submit(() -> {
                while (out.size() < n && it.hasNext()) {
                    out.add(it.next());
                }
            });
            try {
                reading.get(HANG_GUARD_SECONDS, TimeUnit.SECONDS);
            } catch (TimeoutException e) {
                throw new AssertionError("Expected " + n + " rows of " + query + ", got only " + out, e);
            }
        }
        // Free the slot for the next query: the read never ends by itself.
        result.getJobClient().orElseThrow().cancel().get();
        return new ArrayList<>(out);
    }

    /** Rows per key (the first column), in order, with their kinds. */
    private static Map<Object, List<String>> byKey(List<Row> rows) {
        Map<Object, List<String>> out = new TreeMap<>();
        for (Row r : rows) {
            out.computeIfAbsent(r.getField(0), k -> new ArrayList<>()).add(r.toString());
        }
        return out;
    }

    /** Our streaming read of {@code table} from the first snapshot equals Paimon's, row for row per key. */
    private List<Row> assertSameChangelog(String table) throws Exception {
        int n = paimon.streamUntilLatest("default", table, Map.of("scan.mode", "from-snapshot",
                "scan.snapshot-id", "1")).size();
        assertThat(n).as("the changelog of " + table).isPositive();
        String query = "SELECT * FROM %s.`default`." + table + FROM_THE_START;
        assertThat(sEnv.explainSql(String.format(query, "ours"))).as("our plan")
                .doesNotContain("ChangelogNormalize");
        assertThat(sEnv.explainSql(String.format(query, "theirs"))).as("Paimon's plan")
                .doesNotContain("ChangelogNormalize");
        List<Row> theirs = take(String.format(query, "theirs"), n);
        List<Row> mine = take(String.format(query, "ours"), n);
        assertThat(byKey(mine)).as(table + ": our changelog per key").isEqualTo(byKey(theirs));
        return mine;
    }

    @Test
    void aggregationChangelogIsEmittedAsItIs() throws Exception {
        paimonWrites("agg", spec("merge-engine", "aggregation", "fields.n.aggregate-function", "sum",
                "fields.s.aggregate-function", "last_non_null_value", "fields.s.ignore-retract", "true"), 8, true);
        List<Row> changelog = assertSameChangelog("agg");
        assertThat(changelog).extracting(r -> r.getKind().shortString()).contains("+I", "-U", "+U");
    }

    @Test
    void deduplicateChangelogKeepsItsDeletes() throws Exception {
        paimonWrites("dedup", spec(), 8, true);
        List<Row> changelog = assertSameChangelog("dedup");
        assertThat(changelog).extracting(r -> r.getKind().shortString()).contains("+I", "-U", "+U", "-D");
    }

    @Test
    void firstRowChangelogOnlyInserts() throws Exception {
        paimonWrites("firsts", spec("merge-engine", "first-row"), 6, false);
        List<Row> changelog = assertSameChangelog("firsts");
        assertThat(changelog).extracting(r -> r.getKind().shortString()).containsOnly("+I");
    }

    /**
     * A streaming SQL read that starts with the full snapshot of a lookup table whose last commit left
     * level-0 files (write-only), with and without deletion vectors: the full phase holds the files
     * above level 0 only and the level-0 keys arrive with the changelog of their compaction, in our
     * read as in Paimon's. Upserts are written as +I, so the full phases of both stores are +I only.
     */
    @Test
    void lookupTablesStartFromTheLevelsAboveZeroAsPaimonsReadsDo() throws Exception {
        for (boolean dv : new boolean[] {false, true}) {
            String table = dv ? "zero_dv" : "zero";
            paimon.createTable("default", table, spec("deletion-vectors.enabled", Boolean.toString(dv)));
            Random random = new Random(table.hashCode());
            for (int c = 0; c < 7; c++) {
                List<CanonicalRow> rows = new ArrayList<>();
                for (int i = 0; i < 15; i++) {
                    int id = random.nextInt(20);
                    rows.add(random.nextInt(5) == 0 ? CanonicalRow.ofKind(Kind.DELETE, id, 0L, "x")
                            : CanonicalRow.of(id, (long) random.nextInt(100), "v" + random.nextInt(100)));
                }
                if (c < 6) {
                    paimon.write("default", table, rows);
                } else {
                    paimon.writeWith("default", table, Map.of("write-only", "true"), rows);
                }
            }
            long withLevelZero = paimon.latestSnapshotId("default", table).orElseThrow();
            paimon.compactAll("default", table, false);

            Map<String, String> options = Map.of("scan.mode", "from-snapshot-full", "scan.snapshot-id",
                    Long.toString(withLevelZero));
            List<List<CanonicalRow>> plans = paimon.streamPlansUntilLatest("default", table, options);
            assertThat(plans.get(0)).as(table + ": Paimon's full phase").isNotEmpty()
                    .allSatisfy(r -> assertThat(r.kind()).isEqualTo(Kind.INSERT));
            int n = plans.stream().mapToInt(List::size).sum();
            assertThat(n).as(table + ": the changelog of the level-0 keys").isGreaterThan(plans.get(0).size());
            String query = "SELECT * FROM %s.`default`." + table + " /*+ OPTIONS('scan.mode' = 'from-snapshot-full', "
                    + "'scan.snapshot-id' = '" + withLevelZero + "', 'scan.parallelism' = '1') */";
            List<Row> theirs = take(String.format(query, "theirs"), n);
            List<Row> mine = take(String.format(query, "ours"), n);
            assertThat(byKey(mine)).as(table + ": our stream per key").isEqualTo(byKey(theirs));
        }
    }
}
