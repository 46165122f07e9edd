package dev.streamhouse.flink.source;

import dev.streamhouse.flink.source.testutils.FlinkRows;
import dev.streamhouse.flink.source.testutils.InjectedFailures;
import dev.streamhouse.flink.source.testutils.SourceTestTables;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.maintenance.consumer.ConsumerManager;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.testutils.TestTables;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.StateRecoveryOptions;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import static dev.streamhouse.flink.source.testutils.SourceTestTables.pkRow;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Unbounded reads on a MiniCluster while the test commits snapshots through the storage API. The job
 * classes load from the test class path, so the static collections below are shared with the tasks.
 * Jobs run until the expected rows arrived (waiting with a deadline) and are then cancelled.
 */
class PaimonSourceStreamingITCase {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = new MiniClusterExtension(
            new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(4)
                    .setConfiguration(InjectedFailures.restartingClusterConfig())
                    .build());

    private static final Duration DEADLINE = Duration.ofSeconds(90);

    static final ConcurrentLinkedQueue<String> SEEN = new ConcurrentLinkedQueue<>();
    /** The rows the collector held at its latest completed checkpoint. */
    static final AtomicReference<List<String>> COMMITTED = new AtomicReference<>(List.of());
    static final AtomicInteger MOST_ROWS_RESTORED = new AtomicInteger();

    @TempDir
    java.nio.file.Path tmp;

    private final List<JobClient> jobs = new ArrayList<>();

    @BeforeEach
    void reset() {
        SEEN.clear();
        COMMITTED.set(List.of());
        InjectedFailures.LEFT.set(0);
        MOST_ROWS_RESTORED.set(0);
    }

    @AfterEach
    void cancelJobs() throws Exception {
        for (JobClient job : jobs) {
            try {
                job.cancel().get();
            } catch (Exception e) {
                // already finished or cancelled
            }
        }
    }

    /** Waits until {@code condition} holds; {@link #DEADLINE} only guards against a hang. */
    private static void waitUntil(BooleanSupplier condition, Supplier<String> what) {
        try {
            Awaitility.await().atMost(DEADLINE).pollInterval(Duration.ofMillis(50)).until(condition::getAsBoolean);
        } catch (ConditionTimeoutException e) {
            throw new AssertionError("Timed out after " + DEADLINE + " waiting for " + what.get(), e);
        }
    }

    private static DataStream<String> readAsStrings(StreamExecutionEnvironment env, PaimonSource source) {
        RowType type = source.producedType();
        return env.fromSource(source, WatermarkStrategy.noWatermarks(), "paimon")
                .map(r -> FlinkRows.show(r, type))
                .returns(Types.STRING);
    }

    private JobClient start(StreamExecutionEnvironment env, String name) throws Exception {
        JobClient job = env.executeAsync(name);
        jobs.add(job);
        return job;
    }

    private static Map<String, String> streaming(String... more) {
        Map<String, String> options = new HashMap<>();
        options.put("continuous.discovery-interval", "100 ms");
        for (int i = 0; i < more.length; i += 2) {
            options.put(more[i], more[i + 1]);
        }
        return options;
    }

    private FileStoreTable appendTable() throws Exception {
        return TestTables.create(LocalFileIO.INSTANCE, new Path(tmp.resolve("append").toString()),
                TestTables.simpleSchema());
    }

    /** The changes of every key, in the order they were seen. */
    private static Map<Integer, List<String>> byKey(Iterable<String> rows) {
        Map<Integer, List<String>> out = new TreeMap<>();
        for (String row : rows) {
            int key = Integer.parseInt(row.substring(row.indexOf('(') + 1, row.indexOf(',')));
            out.computeIfAbsent(key, k -> new ArrayList<>()).add(row);
        }
        return out;
    }

    @Test
    void primaryKeyChangelogIsStreamedWithRowKindsInOrderPerKey() throws Exception {
        FileStoreTable table = SourceTestTables.primaryKeyTable(tmp, "bucket", "2", "changelog-producer", "input");
        PaimonSource source = PaimonSourceBuilder.forTable(table.copy(streaming("scan.mode", "from-snapshot",
                "scan.snapshot-id", "1"))).unbounded().build();
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        collect(readAsStrings(env, source));
        start(env, "stream pk changelog");

        List<List<InternalRow>> commits = List.of(
                List.of(pkRow(RowKind.INSERT, 1, 10, "a"), pkRow(RowKind.INSERT, 2, 20, "b"),
                        pkRow(RowKind.INSERT, 3, 30, "c"), pkRow(RowKind.INSERT, 4, 40, "d")),
                List.of(pkRow(RowKind.UPDATE_BEFORE, 1, 10, "a"), pkRow(RowKind.UPDATE_AFTER, 1, 11, "a1"),
                        pkRow(RowKind.DELETE, 2, 20, "b")),
                List.of(pkRow(RowKind.INSERT, 2, 21, "b2"), pkRow(RowKind.UPDATE_BEFORE, 3, 30, "c"),
                        pkRow(RowKind.UPDATE_AFTER, 3, 31, "c1")),
                List.of(pkRow(RowKind.UPDATE_BEFORE, 1, 11, "a1"), pkRow(RowKind.UPDATE_AFTER, 1, 12, "a2"),
                        pkRow(RowKind.DELETE, 4, 40, "d"), pkRow(RowKind.UPDATE_BEFORE, 3, 31, "c1"),
                        pkRow(RowKind.UPDATE_AFTER, 3, 32, "c2")));
        List<String> expected = new ArrayList<>();
        long identifier = 1;
        for (List<InternalRow> commit : commits) {
            SourceTestTables.writePk(table, identifier++, commit);
            commit.forEach(r -> expected.add(r.toString()));
        }
        waitUntil(() -> SEEN.size() >= expected.size(), () -> expected.size() + " changes, got " + SEEN);

        assertThat(byKey(SEEN)).isEqualTo(byKey(expected));
        assertThat(byKey(SEEN).get(1)).containsExactly("+I(1, 10, a)", "-U(1, 10, a)", "+U(1, 11, a1)",
                "-U(1, 11, a1)", "+U(1, 12, a2)");
    }

    @Test
    void appendTableReadsTheLatestSnapshotThenEveryLaterOneOnce() throws Exception {
        FileStoreTable table = appendTable();
        TestTables.write(table, TestTables.rows(0, 10, 2));
        PaimonSource source = PaimonSourceBuilder.forTable(table.copy(streaming())).unbounded().build();
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        collect(readAsStrings(env, source));
        start(env, "stream append");

        waitUntil(() -> SEEN.size() >= 10, () -> "the 10 rows of the first snapshot, got " + SEEN);
        for (int batch = 1; batch <= 3; batch++) {
            TestTables.write(table, TestTables.rows(batch * 10, 10, 2));
        }
        waitUntil(() -> SEEN.size() >= 40, () -> "40 rows, got " + SEEN.size());
        // A last snapshot in every partition: once it is seen, earlier snapshots were read completely.
        TestTables.write(table, TestTables.rows(40, 2, 2));
        waitUntil(() -> SEEN.size() >= 42, () -> "42 rows, got " + SEEN.size());

        List<String> expected = new ArrayList<>();
        TestTables.rows(0, 42, 2).forEach(r -> expected.add(r.toString()));
        assertThat(new ArrayList<>(SEEN)).containsExactlyInAnyOrderElementsOf(expected);
    }

    /**
     * 40 snapshots wait and the enumerator may plan only 2 splits (one snapshot) before readers take
     * them: with a discovery interval of an hour, the read gets through them only if it plans the next
     * snapshot as soon as the readers took the last one's splits, not at the next interval.
     */
    @Test
    void aReadStartingFarBehindCatchesUpWithoutWaitingForTheInterval() throws Exception {
        FileStoreTable table = appendTable();
        int snapshots = 40;
        for (int i = 0; i < snapshots; i++) {
            TestTables.write(table, TestTables.rows(i * 10, 10, 2));
        }
        PaimonSource source = PaimonSourceBuilder.forTable(table.copy(Map.of("scan.mode", "from-snapshot",
                "scan.snapshot-id", "1", "continuous.discovery-interval", "1 h", "scan.max-splits-per-task", "1")))
                .unbounded().build();
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        collect(readAsStrings(env, source));
        start(env, "stream catch-up");

        int total = snapshots * 10;
        waitUntil(() -> SEEN.size() >= total, () -> total + " rows of " + snapshots + " snapshots, got " + SEEN.size());
        List<String> expected = new ArrayList<>();
        TestTables.rows(0, total, 2).forEach(r -> expected.add(r.toString()));
        assertThat(new ArrayList<>(SEEN)).containsExactlyInAnyOrderElementsOf(expected);
    }

    @Test
    void restartsFromCheckpointsEmitEveryChangeExactlyOnce() throws Exception {
        FileStoreTable table = appendTable();
        // Not 'latest': the job may start after the first commit below and would then skip it.
        PaimonSource source = PaimonSourceBuilder.forTable(table.copy(streaming("scan.mode", "from-snapshot",
                "scan.snapshot-id", "1"))).unbounded().build();
        InjectedFailures.LEFT.set(2);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        env.enableCheckpointing(200);
        readAsStrings(env, source)
                .map(new InjectedFailures.AfterCheckpointWithRows(1))
                .transform("exactly-once check", Types.VOID, new CheckpointedCollector())
                .setParallelism(1);
        start(env, "stream failover");

        int snapshots = 20;
        int rowsPerSnapshot = 50;
        for (int i = 0; i < snapshots; i++) {
            TestTables.write(table, TestTables.rows(i * rowsPerSnapshot, rowsPerSnapshot, 2));
            if (i % 5 == 4) {
                // Spread the snapshots over several checkpoints (and the injected failures): let a
                // completed checkpoint cover what is written so far before writing more.
                int written = (i + 1) * rowsPerSnapshot;
                waitUntil(() -> COMMITTED.get().size() >= written,
                        () -> written + " rows covered by a completed checkpoint; rows " + COMMITTED.get().size());
            }
        }
        int total = snapshots * rowsPerSnapshot;
        waitUntil(() -> InjectedFailures.LEFT.get() == 0 && COMMITTED.get().size() >= total,
                () -> total + " rows covered by a completed checkpoint after all failures; failures left "
                        + InjectedFailures.LEFT.get() + ", rows " + COMMITTED.get().size());

        assertThat(MOST_ROWS_RESTORED.get()).as("rows restored from a checkpoint").isPositive();
        List<String> expected = new ArrayList<>();
        TestTables.rows(0, total, 2).forEach(r -> expected.add(r.toString()));
        assertThat(COMMITTED.get()).containsExactlyInAnyOrderElementsOf(expected);
    }

    /**
     * A regional failover keeps the enumerator (only readers restart), so this restores the enumerator
     * itself: stop with a savepoint, commit while no job runs, resume from the savepoint.
     */
    @Test
    void resumingFromASavepointReadsTheChangesCommittedMeanwhileOnce() throws Exception {
        FileStoreTable table = appendTable();
        PaimonSource source = PaimonSourceBuilder.forTable(table.copy(streaming("scan.mode", "from-snapshot",
                "scan.snapshot-id", "1"))).unbounded().build();
        JobClient job1 = start(savepointJob(source, null), "savepoint job 1");
        for (int i = 0; i < 3; i++) {
            TestTables.write(table, TestTables.rows(i * 10, 10, 2));
        }
        waitUntil(() -> SEEN.size() >= 30, () -> "30 rows, got " + SEEN.size());
        waitUntil(() -> jobRunning(job1), () -> "job 1 running");
        String savepoint = job1.stopWithSavepoint(false, tmp.resolve("savepoints").toUri().toString(),
                SavepointFormatType.CANONICAL).get();

        TestTables.write(table, TestTables.rows(30, 10, 2));
        TestTables.write(table, TestTables.rows(40, 10, 2));
        start(savepointJob(source, savepoint), "savepoint job 2");
        TestTables.write(table, TestTables.rows(50, 10, 2));
        waitUntil(() -> SEEN.size() >= 60, () -> "60 rows, got " + SEEN.size());

        List<String> expected = new ArrayList<>();
        TestTables.rows(0, 60, 2).forEach(r -> expected.add(r.toString()));
        assertThat(new ArrayList<>(SEEN)).containsExactlyInAnyOrderElementsOf(expected);
    }

    private static StreamExecutionEnvironment savepointJob(PaimonSource source, String savepoint) {
        Configuration conf = new Configuration();
        if (savepoint != null) {
            conf.set(StateRecoveryOptions.SAVEPOINT_PATH, savepoint);
        }
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(2);
        RowType type = source.producedType();
        collect(env.fromSource(source, WatermarkStrategy.noWatermarks(), "paimon").uid("paimon-source")
                .map(r -> FlinkRows.show(r, type)).returns(Types.STRING).uid("show"));
        return env;
    }

    private static boolean jobRunning(JobClient job) {
        try {
            return job.getJobStatus().get() == JobStatus.RUNNING;
        } catch (Exception e) {
            throw new AssertionError("Cannot get the status of job " + job.getJobID(), e);
        }
    }

    @Test
    void aConsumerResumesWhereTheCancelledJobStopped() throws Exception {
        FileStoreTable table = appendTable();
        TestTables.write(table, TestTables.rows(0, 10, 2));
        ConsumerManager consumers = new ConsumerManager(table.fileIO(), table.location());
        FileStoreTable withConsumer = table.copy(streaming("consumer-id", "it"));

        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        env.enableCheckpointing(100);
        collect(readAsStrings(env, PaimonSourceBuilder.forTable(withConsumer).unbounded().build()));
        JobClient job1 = start(env, "consumer job 1");
        waitUntil(() -> SEEN.size() >= 10, () -> "the 10 rows of the first snapshot, got " + SEEN);
        TestTables.write(table, TestTables.rows(10, 10, 2));
        TestTables.write(table, TestTables.rows(20, 10, 2));
        waitUntil(() -> SEEN.size() >= 30, () -> "30 rows, got " + SEEN.size());
        waitUntil(() -> consumerAt(consumers).equals(Optional.of(4L)),
                () -> "consumer progress 4 (snapshots 1-3 read), got " + consumerAt(consumers));
        job1.cancel().get();
        assertThat(new ArrayList<>(SEEN)).hasSize(30);

        SEEN.clear();
        TestTables.write(table, TestTables.rows(30, 10, 2));
        TestTables.write(table, TestTables.rows(40, 10, 2));
        StreamExecutionEnvironment env2 = StreamExecutionEnvironment.getExecutionEnvironment();
        env2.setParallelism(2);
        env2.enableCheckpointing(100);
        collect(readAsStrings(env2, PaimonSourceBuilder.forTable(withConsumer).unbounded().build()));
        start(env2, "consumer job 2");
        waitUntil(() -> consumerAt(consumers).equals(Optional.of(6L)),
                () -> "consumer progress 6 (snapshots 4-5 read), got " + consumerAt(consumers));
        waitUntil(() -> SEEN.size() >= 20, () -> "20 rows, got " + SEEN.size());

        List<String> expected = new ArrayList<>();
        TestTables.rows(30, 20, 2).forEach(r -> expected.add(r.toString()));
        assertThat(new ArrayList<>(SEEN)).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(consumers.list()).containsOnlyKeys("it");
    }

    private static Optional<Long> consumerAt(ConsumerManager consumers) {
        try {
            return consumers.nextSnapshot("it");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * Appends every row to {@link #SEEN} in one subtask, where the rows end (a map and a Sink V2
     * discarding sink, which Flink 1.20 and 2.x both have, instead of a legacy SinkFunction).
     */
    private static void collect(DataStream<String> rows) {
        rows.map(new Collect()).uid("collect").setParallelism(1)
                .sinkTo(new DiscardingSink<>()).uid("discard").setParallelism(1);
    }

    private static final class Collect implements MapFunction<String, String> {
        @Override
        public String map(String value) {
            SEEN.add(value);
            return value;
        }
    }

    /**
     * Keeps every row it got in operator state and, when a checkpoint completes, publishes the rows it
     * held at that checkpoint to {@link #COMMITTED}: what an exactly-once sink would have committed. A
     * row replayed after a restore that the restored state already holds shows as a duplicate; a row
     * skipped never shows.
     */
    private static final class CheckpointedCollector extends AbstractStreamOperator<Void>
            implements OneInputStreamOperator<String, Void> {
        private transient ListState<String> state;
        private transient List<String> rows;
        private transient Map<Long, List<String>> atCheckpoint;

        @Override
        public void initializeState(StateInitializationContext context) throws Exception {
            super.initializeState(context);
            state = context.getOperatorStateStore().getListState(new ListStateDescriptor<>("rows", String.class));
            rows = new ArrayList<>();
            atCheckpoint = new LinkedHashMap<>();
            if (context.isRestored()) {
                state.get().forEach(rows::add);
                MOST_ROWS_RESTORED.accumulateAndGet(rows.size(), Math::max);
            }
        }

        @Override
        public void processElement(StreamRecord<String> element) {
            rows.add(element.getValue());
        }

        @Override
        public void snapshotState(StateSnapshotContext context) throws Exception {
            super.snapshotState(context);
            state.update(rows);
            atCheckpoint.put(context.getCheckpointId(), new ArrayList<>(rows));
        }

        @Override
        public void notifyCheckpointComplete(long checkpointId) throws Exception {
            super.notifyCheckpointComplete(checkpointId);
            List<String> committed = atCheckpoint.get(checkpointId);
            if (committed != null) {
                COMMITTED.set(List.copyOf(committed));
            }
            atCheckpoint.keySet().removeIf(id -> id <= checkpointId);
        }
    }
}
