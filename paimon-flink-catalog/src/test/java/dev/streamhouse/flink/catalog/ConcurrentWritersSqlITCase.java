package dev.streamhouse.flink.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.streamhouse.flink.catalog.testutils.CatalogITCaseBase;
import dev.streamhouse.flink.catalog.testutils.GatedSequence;
import dev.streamhouse.storage.catalog.Identifier;
import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.manifest.ManifestEntry;
import dev.streamhouse.storage.mergetree.KeyComparator;
import dev.streamhouse.storage.mergetree.KeyValueLayout;
import dev.streamhouse.storage.mergetree.compact.Levels;
import dev.streamhouse.storage.snapshot.CommitKind;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.table.source.ReadBuilder;
import org.apache.flink.api.common.JobID;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.runtime.executiongraph.ArchivedExecutionGraph;
import org.apache.flink.runtime.executiongraph.ErrorInfo;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * More than one writer on a table, through Flink SQL on the shared MiniCluster (2 slots: two streaming
 * jobs at parallelism 1, or one streaming job and a batch statement at parallelism 1), with Apache Paimon
 * 1.3's semantics: writers of disjoint partitions never conflict; two jobs compacting the same bucket
 * conflict and one fails with a message and restarts without loss; batch DML, compaction and expiration
 * beside a streaming writer keep every committed row.
 *
 * <p>Deterministic without sleeps: the streaming inputs are {@link GatedSequence}s held at marks, and the
 * test acts once the rows before a mark are visible in the table (read through the storage API, which
 * needs no slot).
 */
class ConcurrentWritersSqlITCase extends CatalogITCaseBase {
    /** Only against a hang: every wait ends as soon as its condition holds. */
    private static final Duration HANG_GUARD = Duration.ofSeconds(120);

    private final List<TableResult> running = new ArrayList<>();

    @BeforeEach
    void oneSlotForBatchStatements() {
        tEnv.getConfig().set("parallelism.default", "1");
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

    /**
     * Starts {@code INSERT INTO t SELECT <select> FROM <gated sequence>}, the sequence's number as
     * {@code f0}, in a streaming job with a checkpoint every 200 ms and {@code restarts} restarts allowed.
     */
    private TableResult insert(String source, long count, int restarts, String select, long... marks) {
        return insert("t", source, count, restarts, select, marks);
    }

    /** Like {@link #insert(String, long, int, String, long...)}, into {@code target} (a table, with hints). */
    private TableResult insert(String target, String source, long count, int restarts, String select, long... marks) {
        Configuration c = new Configuration();
        c.set(CoreOptions.DEFAULT_PARALLELISM, 1);
        c.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofMillis(200));
        c.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        c.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, restarts);
        c.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(100));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(c);
        StreamTableEnvironment sEnv = StreamTableEnvironment.create(env);
        sEnv.executeSql(createCatalogStatement());
        sEnv.useCatalog(CATALOG);
        sEnv.createTemporaryView(source, GatedSequence.source(env, source, count, marks));
        TableResult job = sEnv.executeSql("INSERT INTO " + target + " SELECT " + select + " FROM " + source);
        running.add(job);
        return job;
    }

    private FileStoreTable table() {
        return (FileStoreTable) storage().getTable(Identifier.of("default", "t"));
    }

    /** The rows of the latest snapshot as "id, v[, dt]" (no row kind), sorted. */
    private List<String> content() {
        return content(table().newReadBuilder());
    }

    private static List<String> content(ReadBuilder rb) {
        List<String> out = new ArrayList<>();
        try {
            rb.newRead().executeFilter().createReader(rb.newScan().plan().splits())
                    .forEachRemaining(r -> out.add(show(r)));
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        out.sort(null);
        return out;
    }

    private static String show(InternalRow r) {
        StringBuilder sb = new StringBuilder().append(r.intAt(0)).append(", ").append(r.stringAt(1));
        if (r.arity() > 2) {
            sb.append(", ").append(r.stringAt(2));
        }
        return sb.toString();
    }

    private static List<String> sorted(Map<?, String> rowsByKey) {
        return rowsByKey.values().stream().sorted().collect(Collectors.toList());
    }

    /** Waits until the table's rows that {@code filter} keeps are {@code expected}; fails at once if a job failed. */
    private void awaitRows(Predicate<String> filter, List<String> expected, TableResult... jobs) {
        await().atMost(HANG_GUARD).pollInSameThread().pollInterval(Duration.ofMillis(50)).until(() -> {
            for (TableResult job : jobs) {
                assertThat(status(job)).as("job %s", job.getJobClient().orElseThrow().getJobID())
                        .isNotIn(JobStatus.FAILED, JobStatus.CANCELED);
            }
            return content().stream().filter(filter).collect(Collectors.toList()).equals(expected);
        });
    }

    /**
     * Waits until a checkpoint of {@code job} completes that the test triggered now. Its committer
     * handles checkpoints in order, so by then it has finished the commit whose rows the test saw,
     * including that checkpoint's COMPACT snapshot, which follows its APPEND snapshot; with its source
     * held, the job then commits nothing more. (A job restarting after a conflict cannot take a
     * checkpoint; the trigger is repeated until it runs again.)
     */
    private static void awaitSettled(MiniCluster cluster, TableResult job) {
        await().atMost(HANG_GUARD).pollInSameThread().ignoreExceptions()
                .until(() -> cluster.triggerCheckpoint(id(job)).get() != null);
    }

    private static JobStatus status(TableResult job) throws Exception {
        return job.getJobClient().orElseThrow().getJobStatus().get();
    }

    private static JobID id(TableResult job) {
        return job.getJobClient().orElseThrow().getJobID();
    }

    /** Every retained snapshot can be read, and no bucket of any of them breaks the LSM level invariants. */
    private void assertEverySnapshotReadableWithValidLevels() throws IOException {
        FileStoreTable t = table();
        KeyComparator keys = new KeyComparator(KeyValueLayout.of(t.schema()).keyType());
        Long earliest = t.snapshotManager().earliestSnapshotId();
        Iterator<Snapshot> it = t.snapshotManager().snapshotsAscending(earliest, t.snapshotManager().latestSnapshotId());
        while (it.hasNext()) {
            Snapshot s = it.next();
            content(t.newReadBuilder().withSnapshot(s.id()));
            Map<String, List<DataFileMeta>> buckets = new HashMap<>();
            for (ManifestEntry e : t.snapshotEntries().liveEntries(s, (Set<BinaryRow>) null)) {
                buckets.computeIfAbsent(e.partition() + "/" + e.bucket(), b -> new ArrayList<>()).add(e.file());
            }
            for (Map.Entry<String, List<DataFileMeta>> b : buckets.entrySet()) {
                new Levels(keys, b.getValue(), 6);
            }
        }
    }

    private List<Snapshot> snapshots() throws IOException {
        FileStoreTable t = table();
        List<Snapshot> out = new ArrayList<>();
        Long earliest = t.snapshotManager().earliestSnapshotId();
        if (earliest != null) {
            t.snapshotManager().snapshotsAscending(earliest, t.snapshotManager().latestSnapshotId())
                    .forEachRemaining(out::add);
        }
        return out;
    }

    @Test
    void twoStreamingJobsIntoDisjointPartitionsBothCommitEveryRowExactly() throws Exception {
        sql("CREATE TABLE t (id INT, v STRING, dt STRING, PRIMARY KEY (id, dt) NOT ENFORCED) PARTITIONED BY (dt)"
                + " WITH ('bucket' = '2', 'num-sorted-run.compaction-trigger' = '2')");
        int n = 400;
        long half = 200;
        TableResult a = insert("a", n, 0, "CAST(f0 AS INT), CONCAT('a', CAST(f0 AS STRING)), 'a'", half);
        TableResult b = insert("b", n, 0, "CAST(f0 AS INT), CONCAT('b', CAST(f0 AS STRING)), 'b'", half);
        Map<String, String> expected = new TreeMap<>();
        for (int i = 0; i < half; i++) {
            expected.put("a" + i, i + ", a" + i + ", a");
            expected.put("b" + i, i + ", b" + i + ", b");
        }
        // Both wrote and committed their first halves while the other was running ...
        awaitRows(r -> true, sorted(expected), a, b);
        GatedSequence.release("a", half);
        GatedSequence.release("b", half);
        // ... and then both go on to the end, committing again beside each other; neither may fail.
        a.await(HANG_GUARD.toSeconds(), TimeUnit.SECONDS);
        b.await(HANG_GUARD.toSeconds(), TimeUnit.SECONDS);
        for (int i = 0; i < n; i++) {
            expected.put("a" + i, i + ", a" + i + ", a");
            expected.put("b" + i, i + ", b" + i + ", b");
        }
        assertThat(content()).isEqualTo(sorted(expected));

        List<String> runs = new ArrayList<>();
        for (Snapshot s : snapshots()) {
            if (runs.isEmpty() || !runs.get(runs.size() - 1).equals(s.commitUser())) {
                runs.add(s.commitUser());
            }
        }
        assertThat(runs).as("runs of snapshots by one job").hasSizeGreaterThan(2);
        assertThat(runs.stream().distinct()).hasSize(2);
        assertEverySnapshotReadableWithValidLevels();
    }

    /**
     * An append table without buckets: a streaming job's compaction coordinator follows the whole table,
     * so only one of the jobs compacts ('write-only' on the other, as docs/streaming.md says).
     */
    @Test
    void twoStreamingJobsIntoDisjointPartitionsOfAnAppendTableBothCommitEveryRowExactly() throws Exception {
        sql("CREATE TABLE t (id INT, v STRING, dt STRING) PARTITIONED BY (dt) WITH ('bucket' = '-1',"
                + " 'compaction.min.file-num' = '2')");
        int n = 300;
        long half = 150;
        TableResult a = insert("a", n, 0, "CAST(f0 AS INT), CONCAT('a', CAST(f0 AS STRING)), 'a'", half);
        TableResult b = insert("t /*+ OPTIONS('write-only' = 'true') */", "b", n, 0,
                "CAST(f0 AS INT), CONCAT('b', CAST(f0 AS STRING)), 'b'", half);
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < half; i++) {
            expected.add(i + ", a" + i + ", a");
            expected.add(i + ", b" + i + ", b");
        }
        expected.sort(null);
        awaitRows(r -> true, expected, a, b);
        GatedSequence.release("a", half);
        GatedSequence.release("b", half);
        a.await(HANG_GUARD.toSeconds(), TimeUnit.SECONDS);
        b.await(HANG_GUARD.toSeconds(), TimeUnit.SECONDS);
        for (int i = (int) half; i < n; i++) {
            expected.add(i + ", a" + i + ", a");
            expected.add(i + ", b" + i + ", b");
        }
        expected.sort(null);
        assertThat(content()).isEqualTo(expected);
        for (Snapshot s : snapshots()) {
            content(table().newReadBuilder().withSnapshot(s.id()));
        }
    }

    @Test
    void twoStreamingJobsCompactingOneBucketConflictAndTheLoserRestartsWithoutLoss(
            @InjectMiniCluster MiniCluster cluster) throws Exception {
        // One bucket, one level above 0: every compaction writes level 1, and compacts as soon as a
        // writer sees more than 3 sorted runs (never with 2 or fewer).
        sql("CREATE TABLE t (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket' = '1',"
                + " 'num-sorted-run.compaction-trigger' = '3', 'num-levels' = '2')");
        int n = 300;
        // Job a writes the even keys, job b the odd ones, each in one row per commit up to mark 4.
        TableResult a = insert("a", n, 0, "CAST(f0 * 2 AS INT), CONCAT('a', CAST(f0 AS STRING))", 1, 2, 3, 4);
        TableResult b = insert("b", n, 1, "CAST(f0 * 2 + 1 AS INT), CONCAT('b', CAST(f0 AS STRING))", 1, 2, 3, 4);
        Map<Long, String> expected = new TreeMap<>();
        expected.put(0L, "0, a0");
        expected.put(1L, "1, b0");
        // Both loaded the bucket and committed one file: no compaction yet.
        awaitRows(r -> true, sorted(expected), a, b);

        // Job a commits three more files, one at a time, so it compacts its four; then it runs to its end.
        for (long m = 1; m < 4; m++) {
            GatedSequence.release("a", m);
            expected.put(2 * m, 2 * m + ", a" + m);
            awaitRows(r -> true, sorted(expected), a, b);
        }
        await().atMost(HANG_GUARD).pollInSameThread().until(() -> snapshots().stream()
                .anyMatch(s -> s.commitKind() == CommitKind.COMPACT));
        GatedSequence.release("a", 4);
        a.await(HANG_GUARD.toSeconds(), TimeUnit.SECONDS);
        assertThat(status(a)).isEqualTo(JobStatus.FINISHED);
        for (long i = 0; i < n; i++) {
            expected.put(2 * i, 2 * i + ", a" + i);
        }

        // Job b commits three more files the same way; its compaction of what it loaded cannot be
        // committed beside job a's: its job fails, restarts from its checkpoint and finishes.
        for (long m = 1; m < 4; m++) {
            GatedSequence.release("b", m);
            expected.put(2 * m + 1, (2 * m + 1) + ", b" + m);
            awaitRows(r -> true, sorted(expected), b);
        }
        GatedSequence.release("b", 4);
        b.await(HANG_GUARD.toSeconds(), TimeUnit.SECONDS);
        assertThat(status(b)).isEqualTo(JobStatus.FINISHED);

        ArchivedExecutionGraph graph = cluster.getArchivedExecutionGraph(id(b)).get();
        ErrorInfo failure = graph.getFailureInfo();
        assertThat(failure).as("job b failed once on the conflict").isNotNull();
        assertThat(failure.getExceptionAsString())
                .contains("CommitConflictException")
                .contains("Cannot commit to table default.t:")
                .contains("bucket 0")
                .contains("another job")
                .contains("restarts from its last checkpoint")
                .contains("set 'write-only' = 'true' for all writers but one");
        assertThat(cluster.getArchivedExecutionGraph(id(a)).get().getFailureInfo()).as("job a never failed").isNull();

        for (long i = 0; i < n; i++) {
            expected.put(2 * i + 1, (2 * i + 1) + ", b" + i);
        }
        assertThat(content()).isEqualTo(sorted(expected));
        assertEverySnapshotReadableWithValidLevels();
    }

    @Test
    void batchDmlCompactionAndExpirationBesideAStreamingWriterKeepEveryCommittedRow(
            @InjectMiniCluster MiniCluster cluster) throws Exception {
        sql("CREATE TABLE t (id INT, v STRING, dt STRING, PRIMARY KEY (id, dt) NOT ENFORCED) PARTITIONED BY (dt)"
                + " WITH ('bucket' = '2', 'num-sorted-run.compaction-trigger' = '2')");
        sql("INSERT INTO t SELECT id, 'old', 'old' FROM (VALUES " + java.util.stream.IntStream.range(0, 20)
                .mapToObj(i -> "(" + i + ")").collect(Collectors.joining(", ")) + ") AS x(id)");
        Map<String, String> model = new TreeMap<>();
        for (int i = 0; i < 20; i++) {
            model.put("old/" + i, i + ", old, old");
        }
        int n = 360;
        long[] marks = {60, 120, 180, 240, 300};
        // Restarts allowed: a statement that removes files the writer still holds makes the writer's
        // next compaction conflict (or fail to read); it restarts from its checkpoint.
        TableResult w = insert("s", n, 10, "CAST(f0 AS INT), CONCAT('v', CAST(f0 AS STRING)), 's'", marks);
        long written = 0;
        for (int step = 0; step < marks.length; step++) {
            long mark = marks[step];
            for (long i = written; i < mark; i++) {
                model.put("s/" + i, i + ", v" + i + ", s");
            }
            written = mark;
            awaitRows(belowMark(mark), sorted(model), w);
            awaitSettled(cluster, w);
            switch (step) {
                case 0:
                    sql("DELETE FROM t WHERE dt = 's' AND id < 20");
                    model.keySet().removeIf(k -> k.startsWith("s/") && id(k) < 20);
                    break;
                case 1:
                    sql("UPDATE t SET v = 'u' WHERE dt = 's' AND id >= 60 AND id < 90");
                    model.replaceAll((k, v) -> k.startsWith("s/") && id(k) >= 60 && id(k) < 90 ? id(k) + ", u, s" : v);
                    break;
                case 2:
                    sql("INSERT OVERWRITE t PARTITION (dt = 's') SELECT id, CONCAT('o', v) FROM t"
                            + " WHERE dt = 's' AND MOD(id, 2) = 0");
                    model.keySet().removeIf(k -> k.startsWith("s/") && id(k) % 2 == 1);
                    model.replaceAll((k, v) -> k.startsWith("s/") ? id(k) + ", o" + v.split(", ")[1] + ", s" : v);
                    break;
                case 3:
                    String writer = writerUser();
                    rows("CALL sys.compact(`table` => 'default.t')");
                    assertThat(snapshots()).as("the compaction was committed").anyMatch(
                            s -> s.commitKind() == CommitKind.COMPACT && !s.commitUser().equals(writer));
                    break;
                default:
                    long latest = table().snapshotManager().latestSnapshotId();
                    rows("CALL sys.expire_snapshots(`table` => 'default.t', retain_max => 1, retain_min => 1)");
                    assertThat(table().snapshotManager().earliestSnapshotId()).as("all but the latest expired")
                            .isGreaterThanOrEqualTo(latest);
                    break;
            }
            assertThat(content().stream().filter(belowMark(mark)).collect(Collectors.toList()))
                    .as("after step %s", step).isEqualTo(sorted(model));
            GatedSequence.release("s", mark);
        }
        w.await(HANG_GUARD.toSeconds(), TimeUnit.SECONDS);
        assertThat(status(w)).isEqualTo(JobStatus.FINISHED);
        for (long i = written; i < n; i++) {
            model.put("s/" + i, i + ", v" + i + ", s");
        }
        assertThat(content()).isEqualTo(sorted(model));
        assertEverySnapshotReadableWithValidLevels();
    }

    /** The commit user of the streaming writer: the one of the first snapshot of partition s. */
    private String writerUser() throws IOException {
        return snapshots().stream().filter(s -> s.commitIdentifier() != Snapshot.BATCH_COMMIT_IDENTIFIER)
                .map(Snapshot::commitUser).findFirst().orElseThrow();
    }

    private static long id(String key) {
        return Long.parseLong(key.substring(key.indexOf('/') + 1));
    }

    /** Rows of partition old, and of partition s below {@code mark}. */
    private static Predicate<String> belowMark(long mark) {
        return r -> r.endsWith(", old") || Long.parseLong(r.substring(0, r.indexOf(',')).trim()) < mark;
    }
}
