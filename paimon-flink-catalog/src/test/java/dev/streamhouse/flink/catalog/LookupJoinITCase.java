package dev.streamhouse.flink.catalog;

import dev.streamhouse.flink.catalog.testutils.CatalogITCaseBase;

import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.functions.ScalarFunction;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Lookup joins ({@code JOIN dim FOR SYSTEM_TIME AS OF p.proc AS d ON ...}) against tables of the
 * catalog, in streaming SQL: probes come from a streaming read of an append table {@code probes}, so a
 * test decides when each probe arrives (it inserts it) and when the dimension changes. Dimensions look
 * for new snapshots at every lookup ({@code lookup.continuous.discovery-interval} = 1 ms), so a probe
 * inserted after a dimension commit sees it. Reading rows has a generous deadline as a hang guard
 * only; nothing is timed.
 */
class LookupJoinITCase extends CatalogITCaseBase {
    private static final int HANG_GUARD_SECONDS = 120;
    private static final String FRESH = "'lookup.continuous.discovery-interval' = '1 ms'";

    private TableEnvironment sEnv;
    private final ExecutorService reader = Executors.newSingleThreadExecutor();
    private final List<TableResult> running = new ArrayList<>();

    @BeforeEach
    void createStreamingEnvironment() {
        // One slot for the streaming join, one for the batch INSERTs that feed it.
        tEnv.getConfig().set("parallelism.default", "1");
        sEnv = TableEnvironment.create(EnvironmentSettings.inStreamingMode());
        sEnv.getConfig().set("parallelism.default", "1");
        sEnv.executeSql(createCatalogStatement(Map.of("table-default.continuous.discovery-interval", "100 ms")));
        sEnv.useCatalog(CATALOG);
        sql("CREATE TABLE probes (k INT, tag STRING) WITH ('continuous.discovery-interval' = '100 ms')");
        sEnv.executeSql("CREATE TEMPORARY VIEW p AS SELECT k, tag, PROCTIME() AS proc FROM probes");
    }

    @AfterEach
    void cancelJobs() {
        reader.shutdownNow();
        cancelRunning();
    }

    /** Cancels the streaming jobs started so far (the cluster has two slots: one join at a time). */
    private void cancelRunning() {
        for (TableResult r : running) {
            Optional.ofNullable(r.getJobClient().orElse(null)).ifPresent(c -> {
                try {
                    c.cancel().get();
                } catch (Exception e) {
                    // already finished or failed
                }
            });
        }
        running.clear();
    }

    private CloseableIterator<Row> follow(TableEnvironment env, String query) {
        TableResult result = env.executeSql(query);
        running.add(result);
        return result.collect();
    }

    private CloseableIterator<Row> follow(String query) {
        return follow(sEnv, query);
    }

    /** The next {@code n} rows of a streaming query, sorted; fails if they do not come within the guard. */
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
        List<String> sorted = new ArrayList<>(out);
        Collections.sort(sorted);
        return sorted;
    }

    private void probe(String values) {
        sql("INSERT INTO probes VALUES " + values);
    }

    private void dimension(String options) {
        sql("CREATE TABLE dim (id INT, name STRING, v BIGINT, region STRING, PRIMARY KEY (id) NOT ENFORCED) "
                + "WITH ('bucket' = '2', " + FRESH + options + ")");
        sql("INSERT INTO dim VALUES (1, 'a', 10, 'eu'), (2, 'b', 20, 'us'), (3, 'c', 30, 'eu')");
    }

    @Test
    void joinOnThePrimaryKeyWithProjectionAndFilterOnTheDimension() throws Exception {
        dimension("");
        CloseableIterator<Row> it = follow("SELECT p.k, p.tag, d.name FROM p JOIN dim FOR SYSTEM_TIME AS OF p.proc AS d "
                + "ON p.k = d.id WHERE d.v > 10");
        probe("(1, 'x'), (2, 'y'), (3, 'z'), (4, 'w'), (CAST(NULL AS INT), 'n')");
        assertThat(take(it, 2)).containsExactly("+I[2, y, b]", "+I[3, z, c]");
    }

    @Test
    void leftJoinKeepsProbesWithoutAMatch() throws Exception {
        dimension("");
        CloseableIterator<Row> it = follow("SELECT p.k, d.name, d.v FROM p LEFT JOIN dim FOR SYSTEM_TIME AS OF p.proc "
                + "AS d ON p.k = d.id");
        probe("(1, 'x'), (4, 'w'), (CAST(NULL AS INT), 'n')");
        assertThat(take(it, 3)).containsExactly("+I[1, a, 10]", "+I[4, null, null]", "+I[null, null, null]");
    }

    @Test
    void insertsUpdatesAndDeletesOfTheDimensionReachLaterProbes() throws Exception {
        dimension("");
        CloseableIterator<Row> it = follow("SELECT p.tag, p.k, d.name FROM p JOIN dim FOR SYSTEM_TIME AS OF p.proc AS d "
                + "ON p.k = d.id");
        probe("(1, 'before'), (2, 'before')");
        assertThat(take(it, 2)).containsExactly("+I[before, 1, a]", "+I[before, 2, b]");

        sql("INSERT INTO dim VALUES (1, 'a2', 11, 'eu'), (4, 'd', 40, 'us')");
        sql("DELETE FROM dim WHERE id = 2");
        probe("(1, 'after'), (2, 'after'), (4, 'after')");
        assertThat(take(it, 2)).containsExactly("+I[after, 1, a2]", "+I[after, 4, d]");
    }

    @Test
    void joinOnANonKeyColumnFindsEveryMatchingRow() throws Exception {
        dimension("");
        CloseableIterator<Row> it = follow("SELECT p.tag, d.id FROM p JOIN dim FOR SYSTEM_TIME AS OF p.proc AS d "
                + "ON p.tag = d.region");
        probe("(0, 'eu'), (0, 'asia')");
        assertThat(take(it, 2)).containsExactly("+I[eu, 1]", "+I[eu, 3]");

        sql("INSERT INTO dim VALUES (1, 'a', 10, 'us')");
        probe("(0, 'eu')");
        assertThat(take(it, 1)).containsExactly("+I[eu, 3]");
    }

    @Test
    void joinOnAPrefixOfTheKeyAndWithAConstant() throws Exception {
        sql("CREATE TABLE prices (item INT, shop STRING, price INT, PRIMARY KEY (item, shop) NOT ENFORCED) "
                + "WITH ('bucket' = '1', " + FRESH + ")");
        sql("INSERT INTO prices VALUES (1, 's1', 100), (1, 's2', 110), (2, 's1', 200)");
        probe("(1, 'x')");
        assertThat(take(follow("SELECT p.k, d.shop, d.price FROM p JOIN prices FOR SYSTEM_TIME AS OF p.proc "
                + "AS d ON p.k = d.item"), 2)).containsExactly("+I[1, s1, 100]", "+I[1, s2, 110]");
        cancelRunning();
        assertThat(take(follow("SELECT p.k, d.price FROM p JOIN prices FOR SYSTEM_TIME AS OF p.proc "
                + "AS d ON p.k = d.item AND d.shop = 's2'"), 1)).containsExactly("+I[1, 110]");
    }

    @Test
    void appendTableDimensionReturnsEveryRowOfTheKey() throws Exception {
        sql("CREATE TABLE events (id INT, what STRING) WITH (" + FRESH + ")");
        sql("INSERT INTO events VALUES (1, 'one'), (1, 'uno'), (2, 'two')");
        CloseableIterator<Row> it = follow("SELECT p.k, d.what FROM p JOIN events FOR SYSTEM_TIME AS OF p.proc AS d "
                + "ON p.k = d.id");
        probe("(1, 'x')");
        assertThat(take(it, 2)).containsExactly("+I[1, one]", "+I[1, uno]");
        sql("INSERT INTO events VALUES (2, 'deux')");
        probe("(2, 'x')");
        assertThat(take(it, 2)).containsExactly("+I[2, deux]", "+I[2, two]");
    }

    @Test
    void asyncAndSyncLookupsGiveTheSameRows() throws Exception {
        dimension("");
        String join = "SELECT p.k, d.name FROM p JOIN dim /*+ OPTIONS(%s) */ FOR SYSTEM_TIME AS OF p.proc AS d "
                + "ON p.k = d.id";
        probe("(1, 'x'), (2, 'y'), (5, 'z'), (3, 'w'), (1, 'v')");
        List<String> expected = List.of("+I[1, a]", "+I[1, a]", "+I[2, b]", "+I[3, c]");
        assertThat(take(follow(String.format(join, "'lookup.async' = 'false'")), 4)).isEqualTo(expected);
        cancelRunning();
        assertThat(take(follow(String.format(join, "'lookup.async' = 'true', 'lookup.async-thread-number' = '4'")), 4))
                .isEqualTo(expected);
    }

    @Test
    void memoryCacheAndRefreshInItsOwnThreadServeTheSameRows() throws Exception {
        dimension(", 'lookup.cache' = 'MEMORY', 'lookup.refresh.async' = 'true', "
                + "'lookup.refresh.async.pending-snapshot-count' = '0'");
        CloseableIterator<Row> it = follow("SELECT p.k, d.name FROM p JOIN dim FOR SYSTEM_TIME AS OF p.proc AS d "
                + "ON p.k = d.id");
        probe("(1, 'x')");
        assertThat(take(it, 1)).containsExactly("+I[1, a]");
        sql("INSERT INTO dim VALUES (5, 'e', 50, 'eu')");
        probe("(5, 'x')");
        assertThat(take(it, 1)).containsExactly("+I[5, e]");
    }

    /** Records the keys of probes on their way into the lookup join (evaluated in the same task, just before it). */
    public static class SeenBeforeLookup extends ScalarFunction {
        static final java.util.Set<Integer> SEEN = java.util.concurrent.ConcurrentHashMap.newKeySet();

        public Integer eval(Integer k) {
            if (k != null) {
                SEEN.add(k);
            }
            return k;
        }

        @Override
        public boolean isDeterministic() {
            return false;
        }
    }

    @Test
    void retryHintWaitsForAMissingKeyToArrive() throws Exception {
        dimension("");
        SeenBeforeLookup.SEEN.clear();
        sEnv.createTemporarySystemFunction("seen", SeenBeforeLookup.class);
        CloseableIterator<Row> it = follow("SELECT /*+ LOOKUP('table'='d', 'retry-predicate'='lookup_miss', "
                + "'retry-strategy'='fixed_delay', 'fixed-delay'='100 ms', 'max-attempts'='1200') */ q.k, d.name "
                + "FROM (SELECT seen(k) AS k, proc FROM p) AS q JOIN dim FOR SYSTEM_TIME AS OF q.proc AS d "
                + "ON q.k = d.id");
        probe("(1, 'marker')");
        assertThat(take(it, 1)).containsExactly("+I[1, a]");
        probe("(7, 'early')");
        // Probe 7 reached the lookup (and missed: key 7 does not exist yet); without the retry it is dropped.
        org.awaitility.Awaitility.await().atMost(HANG_GUARD_SECONDS, TimeUnit.SECONDS)
                .until(() -> SeenBeforeLookup.SEEN.contains(7));
        sql("INSERT INTO dim VALUES (7, 'g', 70, 'eu')");
        assertThat(take(it, 1)).containsExactly("+I[7, g]");
    }

    @Test
    void maxPtFollowsTheNewestPartition() throws Exception {
        sql("CREATE TABLE daily (id INT, v STRING, dt STRING, PRIMARY KEY (id, dt) NOT ENFORCED) "
                + "PARTITIONED BY (dt) WITH ('bucket' = '1', " + FRESH + ", 'scan.partitions' = 'max_pt()', "
                + "'lookup.dynamic-partition.refresh-interval' = '1 ms')");
        sql("INSERT INTO daily VALUES (1, 'old', '2024-01-01'), (1, 'new', '2024-01-02'), (2, 'gone', '2024-01-01')");
        CloseableIterator<Row> it = follow("SELECT p.k, d.v, d.dt FROM p JOIN daily FOR SYSTEM_TIME AS OF p.proc AS d "
                + "ON p.k = d.id");
        probe("(1, 'x'), (2, 'x')");
        assertThat(take(it, 1)).containsExactly("+I[1, new, 2024-01-02]");
        sql("INSERT INTO daily VALUES (2, 'newest', '2024-01-03')");
        probe("(1, 'y'), (2, 'y')");
        assertThat(take(it, 1)).containsExactly("+I[2, newest, 2024-01-03]");
    }

    @Test
    void aDimensionLargerThanTheCacheMemoryIsServedFromLocalDisk() throws Exception {
        sql("CREATE TABLE big (id INT, pad STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket' = '2', "
                + "'lookup.cache-max-memory-size' = '8 mb', 'lookup.cache-rows' = '0')");
        sql("CREATE TEMPORARY TABLE gen (id INT) WITH ('connector' = 'datagen', 'number-of-rows' = '100000', "
                + "'fields.id.kind' = 'sequence', 'fields.id.start' = '0', 'fields.id.end' = '99999')");
        sql("INSERT INTO big SELECT id, CONCAT(CAST(id AS STRING), REPEAT('x', 200)) FROM gen");
        CloseableIterator<Row> it = follow("SELECT p.k, CHAR_LENGTH(d.pad) > 100, SUBSTRING(d.pad, 1, 6) FROM p "
                + "JOIN big FOR SYSTEM_TIME AS OF p.proc AS d ON p.k = d.id");
        probe("(0, 'x'), (12345, 'x'), (99999, 'x'), (100000, 'x')");
        assertThat(take(it, 3)).containsExactly("+I[0, true, 0xxxxx]", "+I[12345, true, 12345x]",
                "+I[99999, true, 99999x]");
    }

    @Test
    void lookupJoinFromTheTableApiOnADataStreamOfProbes() throws Exception {
        dimension("");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        StreamTableEnvironment tableEnv = StreamTableEnvironment.create(env);
        tableEnv.executeSql(createCatalogStatement(Map.of()));
        tableEnv.createTemporaryView("orders", env.fromData(Row.of(1, 5L), Row.of(3, 6L), Row.of(9, 7L))
                        .returns(org.apache.flink.api.common.typeinfo.Types.ROW(
                                org.apache.flink.api.common.typeinfo.Types.INT,
                                org.apache.flink.api.common.typeinfo.Types.LONG)),
                Schema.newBuilder().columnByExpression("proc", "PROCTIME()").build());
        List<String> out = new ArrayList<>();
        try (CloseableIterator<Row> rows = tableEnv.executeSql("SELECT o.f0, d.name FROM orders AS o JOIN "
                + CATALOG + ".`default`.dim FOR SYSTEM_TIME AS OF o.proc AS d ON o.f0 = d.id").collect()) {
            rows.forEachRemaining(r -> out.add(r.toString()));
        }
        Collections.sort(out);
        assertThat(out).containsExactly("+I[1, a]", "+I[3, c]");
    }

    /** Fails the first job attempt once it joined probe 3, so the job restarts from its last checkpoint. */
    public static class FailOnce extends ScalarFunction {
        static final AtomicBoolean FAILED = new AtomicBoolean();

        public Integer eval(Integer k) {
            if (k != null && k == 3 && FAILED.compareAndSet(false, true)) {
                throw new IllegalStateException("injected failure after a lookup");
            }
            return k;
        }
    }

    @Test
    void aJobRestartedFromACheckpointRebuildsTheCacheAndWritesTheSameResult() throws Exception {
        dimension("");
        FailOnce.FAILED.set(false);
        sEnv.getConfig().set("execution.checkpointing.interval", "200 ms");
        sEnv.getConfig().set("restart-strategy.type", "fixed-delay");
        sEnv.getConfig().set("restart-strategy.fixed-delay.attempts", "3");
        sEnv.getConfig().set("restart-strategy.fixed-delay.delay", "200 ms");
        sEnv.createTemporarySystemFunction("fail_once", FailOnce.class);
        sql("CREATE TABLE joined (k INT, name STRING, PRIMARY KEY (k) NOT ENFORCED) WITH ('bucket' = '1')");
        probe("(1, 'x'), (2, 'x')");
        TableResult job = sEnv.executeSql("INSERT INTO joined SELECT fail_once(p.k), d.name FROM p JOIN dim "
                + "FOR SYSTEM_TIME AS OF p.proc AS d ON p.k = d.id");
        running.add(job);
        org.awaitility.Awaitility.await().pollInSameThread().atMost(HANG_GUARD_SECONDS, TimeUnit.SECONDS)
                .until(() -> sortedRows("SELECT * FROM joined").size() == 2);
        sql("INSERT INTO dim VALUES (2, 'b2', 21, 'us')");
        probe("(3, 'x'), (2, 'x')");
        org.awaitility.Awaitility.await().pollInSameThread().atMost(HANG_GUARD_SECONDS, TimeUnit.SECONDS)
                .until(() -> sortedRows("SELECT * FROM joined").size() == 3
                        && sortedRows("SELECT * FROM joined").contains("+I[2, b2]"));
        assertThat(FailOnce.FAILED).as("the failure was injected").isTrue();
        assertThat(sortedRows("SELECT * FROM joined")).containsExactly("+I[1, a]", "+I[2, b2]", "+I[3, c]");
    }

    @Test
    void aLookupJoinOnASystemTableIsRefusedWithAClearMessage() {
        dimension("");
        assertThatThrownBy(() -> sEnv.executeSql("SELECT p.k FROM p JOIN `dim$snapshots` FOR SYSTEM_TIME AS OF p.proc "
                + "AS d ON p.k = d.snapshot_id").collect())
                .hasStackTraceContaining("dim$snapshots");
    }
}
