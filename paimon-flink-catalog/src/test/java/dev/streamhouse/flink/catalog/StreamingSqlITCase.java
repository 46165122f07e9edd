package dev.streamhouse.flink.catalog;

import dev.streamhouse.flink.catalog.testutils.CatalogITCaseBase;

import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Streaming SQL on tables of a paimon catalog: a streaming INSERT commits on checkpoints while a
 * streaming SELECT follows the table's changes, with the changelog mode the table's kind and
 * {@code changelog-producer} give, the scan modes, consumer ids and watermarks. Reading rows has a
 * generous deadline as a hang guard only (a missing row fails the test instead of hanging it);
 * nothing is timed.
 */
class StreamingSqlITCase extends CatalogITCaseBase {
    private static final int HANG_GUARD_SECONDS = 90;

    private TableEnvironment sEnv;
    private final java.util.concurrent.ExecutorService reader =
            java.util.concurrent.Executors.newSingleThreadExecutor();
    private final List<TableResult> running = new ArrayList<>();

    /**
     * Tables created in these tests look for new snapshots every 100 ms instead of 10 s, and are read
     * by one source task, so a streaming SELECT and a streaming INSERT fit the two slots together.
     */
    @Override
    protected Map<String, String> catalogOptions() {
        return Map.of("table-default.continuous.discovery-interval", "100 ms", "table-default.scan.parallelism", "1");
    }

    /** Runs a statement to its end (a bounded INSERT), failing instead of hanging. */
    private void run(String statement) throws Exception {
        TableResult result = sEnv.executeSql(statement);
        running.add(result);
        try {
            result.await(HANG_GUARD_SECONDS, java.util.concurrent.TimeUnit.SECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("Statement did not finish: " + statement, e);
        }
    }

    @BeforeEach
    void createStreamingEnvironment() {
        sEnv = newStreamingEnvironment();
    }

    @AfterEach
    void cancelJobs() throws Exception {
        reader.shutdownNow();
        for (TableResult r : running) {
            Optional.ofNullable(r.getJobClient().orElse(null)).ifPresent(c -> {
                try {
                    c.cancel().get();
                } catch (Exception e) {
                    // already finished or failed
                }
            });
        }
    }

    /** Starts a streaming query; its rows are read from the returned iterator. */
    private CloseableIterator<Row> follow(String query) {
        TableResult result = sEnv.executeSql(query);
        running.add(result);
        return result.collect();
    }

    /**
     * The next {@code n} rows of a streaming query, as {@code Row.toString()}; fails if they do not
     * arrive within {@link #HANG_GUARD_SECONDS} (the iterator blocks and ignores interrupts).
     */
    private List<String> take(CloseableIterator<Row> it, int n) throws Exception {
        List<String> out = java.util.Collections.synchronizedList(new ArrayList<>());
        java.util.concurrent.Future<?> reading = reader.submit(() -> {
            while (out.size() < n && it.hasNext()) {
                out.add(it.next().toString());
            }
        });
        try {
            reading.get(HANG_GUARD_SECONDS, java.util.concurrent.TimeUnit.SECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("Expected " + n + " rows of the streaming query, got only " + out, e);
        }
        return new ArrayList<>(out);
    }

    /** Applies a changelog to a map by first field, as a downstream upsert consumer would. */
    private static Map<String, String> applyChangelog(List<String> changes) {
        Map<String, String> state = new LinkedHashMap<>();
        for (String c : changes) {
            String kind = c.substring(0, 2);
            String body = c.substring(3, c.length() - 1);
            String key = body.split(", ")[0];
            if (kind.equals("+I") || kind.equals("+U")) {
                state.put(key, body);
            } else {
                state.remove(key);
            }
        }
        return state;
    }

    @Test
    void streamingInsertIsSeenByAConcurrentStreamingSelectAsAnUpsertChangelog() throws Exception {
        sql("CREATE TABLE pk (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket' = '2')");
        try (CloseableIterator<Row> it = follow("SELECT * FROM pk")) {
            run("INSERT INTO pk VALUES (1, 'a'), (2, 'b')");
            List<String> first = take(it, 2);
            assertThat(first).containsExactlyInAnyOrder("+I[1, a]", "+I[2, b]");

            run("INSERT INTO pk VALUES (1, 'a2')");
            assertThat(take(it, 2)).as("Flink's normalize step turns the upsert into -U/+U")
                    .containsExactly("-U[1, a]", "+U[1, a2]");
        }
    }

    @Test
    void datagenUpsertsReachAConcurrentReaderWhoseStateMatchesTheTable() throws Exception {
        sql("CREATE TABLE pk (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket' = '2')");
        sEnv.executeSql("CREATE TEMPORARY TABLE gen (id INT, v STRING) WITH ('connector' = 'datagen', "
                + "'rows-per-second' = '500', 'number-of-rows' = '1500', 'fields.id.min' = '1', "
                + "'fields.id.max' = '40', 'fields.v.length' = '6')");
        try (CloseableIterator<Row> it = follow("SELECT * FROM pk")) {
            run("INSERT INTO pk SELECT * FROM gen");
            assertThat(snapshotsOf("pk")).as("the streaming INSERT committed on several checkpoints")
                    .isGreaterThan(1);
            Map<String, String> expected = new LinkedHashMap<>();
            for (String row : rows("SELECT * FROM pk")) {
                String body = row.substring(3, row.length() - 1);
                expected.put(body.split(", ")[0], body);
            }
            List<String> changes = new ArrayList<>();
            while (!applyChangelog(changes).equals(expected)) {
                changes.addAll(take(it, 1));
            }
            assertThat(applyChangelog(changes)).isEqualTo(expected);
        }
    }

    private long snapshotsOf(String table) {
        return rows("SELECT snapshot_id FROM `" + table + "$snapshots`").size();
    }

    @Test
    void changelogProducerInputEmitsTheInputChangelog() throws Exception {
        sql("CREATE TABLE counts (id INT, cnt BIGINT, PRIMARY KEY (id) NOT ENFORCED) "
                + "WITH ('bucket' = '1', 'changelog-producer' = 'input')");
        try (CloseableIterator<Row> it = follow("SELECT * FROM counts /*+ OPTIONS('scan.mode' = 'from-snapshot', "
                + "'scan.snapshot-id' = '1') */")) {
            // A streaming aggregation emits +I, then -U/+U per later row of the same key.
            run("INSERT INTO counts SELECT id, COUNT(*) FROM (VALUES (1), (2), (1)) AS s(id) GROUP BY id");
            List<String> changes = take(it, 4);
            assertThat(changes).as("the input changelog, -U included, in order per key")
                    .containsSubsequence("+I[1, 1]", "-U[1, 1]", "+U[1, 2]").contains("+I[2, 1]");
            assertThat(applyChangelog(changes)).containsOnlyKeys("1", "2").containsEntry("1", "1, 2");

            run("INSERT INTO counts VALUES (2, 7)");
            assertThat(take(it, 1)).as("an insert of an existing key is an insert in the input changelog")
                    .containsExactly("+I[2, 7]");
        }
    }

    @Test
    void appendTableStreamsInsertsFromTheFullSnapshotOn() throws Exception {
        sql("CREATE TABLE log (id INT, msg STRING)");
        sql("INSERT INTO log VALUES (1, 'before')");
        try (CloseableIterator<Row> it = follow("SELECT * FROM log")) {
            assertThat(take(it, 1)).as("scan.mode default = latest-full: the existing rows first")
                    .containsExactly("+I[1, before]");
            run("INSERT INTO log VALUES (2, 'after'), (3, 'after')");
            assertThat(take(it, 2)).containsExactlyInAnyOrder("+I[2, after]", "+I[3, after]");
        }
    }

    @Test
    void scanModeLatestSkipsWhatWasCommittedBefore() throws Exception {
        sql("CREATE TABLE log (id INT)");
        sql("INSERT INTO log VALUES (1)");
        try (CloseableIterator<Row> it = follow("SELECT * FROM log /*+ OPTIONS('scan.mode' = 'latest') */")) {
            run("INSERT INTO log VALUES (2)");
            assertThat(take(it, 1)).containsExactly("+I[2]");
        }
    }

    @Test
    void streamingSelectWithAFilterAndProjection() throws Exception {
        sql("CREATE TABLE pk (id INT, v STRING, n INT, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket' = '1', "
                + "'changelog-producer' = 'input')");
        try (CloseableIterator<Row> it = follow("SELECT id, n FROM pk WHERE id > 1")) {
            run("INSERT INTO pk VALUES (1, 'a', 10), (2, 'b', 20), (3, 'c', 30)");
            assertThat(take(it, 2)).containsExactlyInAnyOrder("+I[2, 20]", "+I[3, 30]");
        }
    }

    @Test
    void consumerIdRecordsProgressAndANewQueryResumesThere() throws Exception {
        sql("CREATE TABLE log (id INT)");
        String hint = "/*+ OPTIONS('consumer-id' = 'reporting', 'scan.mode' = 'latest-full') */";
        sql("INSERT INTO log VALUES (1)");
        TableResult first = sEnv.executeSql("SELECT * FROM log " + hint);
        running.add(first);
        try (CloseableIterator<Row> it = first.collect()) {
            assertThat(take(it, 1)).containsExactly("+I[1]");
            String consumer = "default.db/log/consumer/consumer-reporting";
            run("INSERT INTO log VALUES (2)");
            assertThat(take(it, 1)).containsExactly("+I[2]");
            // The consumer file follows completed checkpoints; wait until it points past snapshot 2.
            long deadline = System.nanoTime() + HANG_GUARD_SECONDS * 1_000_000_000L;
            while (!String.valueOf(readWarehouseFile(consumer)).contains("\"nextSnapshot\" : 3")) {
                assertThat(System.nanoTime()).as("consumer file %s reaches snapshot 3", consumer).isLessThan(deadline);
                Thread.sleep(50);
            }
        }
        first.getJobClient().orElseThrow().cancel().get();

        sql("INSERT INTO log VALUES (3)");
        try (CloseableIterator<Row> it = follow("SELECT * FROM log " + hint)) {
            assertThat(take(it, 1)).as("resumes at snapshot 3, not with a full read").containsExactly("+I[3]");
        }
    }

    @Test
    void watermarkFromTheDdlDrivesEventTimeWindows() throws Exception {
        sql("CREATE TABLE clicks (user_id INT, ts TIMESTAMP(3), WATERMARK FOR ts AS ts - INTERVAL '1' SECOND) "
                + "WITH ('bucket' = '1', 'bucket-key' = 'user_id')");
        try (CloseableIterator<Row> it = follow("SELECT window_start, COUNT(*) AS c FROM TABLE("
                + "TUMBLE(TABLE clicks, DESCRIPTOR(ts), INTERVAL '10' SECOND)) GROUP BY window_start, window_end")) {
            run("INSERT INTO clicks VALUES (1, TIMESTAMP '2026-01-01 00:00:01'), "
                    + "(2, TIMESTAMP '2026-01-01 00:00:05'), (3, TIMESTAMP '2026-01-01 00:00:12')");
            run("INSERT INTO clicks VALUES (4, TIMESTAMP '2026-01-01 00:00:30')");
            assertThat(take(it, 2)).containsExactly("+I[2026-01-01T00:00, 2]", "+I[2026-01-01T00:00:10, 1]");
        }
    }
}
