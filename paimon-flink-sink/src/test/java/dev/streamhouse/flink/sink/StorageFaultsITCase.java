package dev.streamhouse.flink.sink;

import dev.streamhouse.flink.sink.testutils.CheckpointedBatchSource;
import dev.streamhouse.flink.sink.testutils.ChangeReplay;
import dev.streamhouse.flink.sink.testutils.Changelogs;
import dev.streamhouse.flink.sink.testutils.CommitFaults;
import dev.streamhouse.flink.sink.testutils.Jobs;
import dev.streamhouse.flink.sink.testutils.SinkTables;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.testutils.FailingFileIO;
import dev.streamhouse.storage.testutils.FileOperation;
import dev.streamhouse.storage.testutils.RetainedSnapshots;
import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;

import static dev.streamhouse.flink.sink.testutils.SinkTables.TYPE_INFO;
import static dev.streamhouse.flink.sink.testutils.SinkTables.flinkRow;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Storage faults inside running streaming jobs: the table's {@link FailingFileIO} fails one chosen call
 * (create, write, close, rename, delete, list, read) in a commit, a compaction, an expiration or the
 * production of a lookup changelog; the job restarts from its checkpoint (fixed-delay). Afterwards the
 * table holds exactly the expected rows, each retained snapshot holds exactly the rows of a prefix of
 * the input batches (never part of one), its changelog replays to the table, no retained snapshot
 * references a missing file, and orphan removal (dry run) finds exactly the files no snapshot
 * references.
 *
 * <p>The input is {@link CheckpointedBatchSource}: {@value #BATCHES} batches of {@value #BATCH} records,
 * one per checkpoint, so every run commits the same data in the same commits. The commit sweeps first
 * count the committer's FileIO calls of one commit (the {@value #TARGET}-th data commit, with the
 * expiration after it) in a recording run, then run one job per call with that call failing (before
 * it takes effect, or after: "outcome unknown", alternately). Another sweep fails each of the
 * writers' calls on files under the buckets (flushes, compactions, lookups, changelog files). A sweep
 * samples every {@code ceil(calls / MAX_POINTS)}-th call (at most 8 jobs, {@code -Dfaults.max-points}
 * changes that); {@code -Dfaults.every-call=true} runs every one (about 300 jobs, some 20 minutes; add
 * {@code -Djunit.jupiter.execution.timeout.mode=disabled}).
 */
class StorageFaultsITCase {
    private static final int BATCHES = 5;
    private static final int BATCH = 20;
    private static final int TARGET = 4;
    private static final int KEYS = 30;
    private static final int MAX_POINTS = Integer.getInteger("faults.max-points", 8);
    private static final boolean EVERY_CALL = Boolean.getBoolean("faults.every-call");

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = Jobs.miniCluster();

    @TempDir
    java.nio.file.Path tmp;

    private int tables;

    // ---- Input sequences and the rows they leave ----

    /**
     * Event i is event j = i / KEYS of key k = i % KEYS (partition d(k % 2), value j): +I, -U, +U, -D by
     * j % 4, so keys are inserted, retracted, updated and deleted; batches end mid-round.
     */
    static final class ChangeSequence implements MapFunction<Long, RowData> {
        @Override
        public RowData map(Long i) {
            int k = (int) (i % KEYS);
            long j = i / KEYS;
            return flinkRow(org.apache.flink.types.RowKind.values()[(int) (j % 4)], k, j, "d" + (k % 2));
        }
    }

    /** Row i = (i, i, d(i % 3)), inserts. */
    static final class AppendSequence implements MapFunction<Long, RowData> {
        @Override
        public RowData map(Long i) {
            return flinkRow((int) (long) i, i, "d" + (i % 3));
        }
    }

    /** The rows of a table after the first {@code n} records, without row kinds, sorted. */
    interface Expected {
        List<String> after(long n);
    }

    private static List<String> changeRowsAfter(long n) {
        List<String> out = new ArrayList<>();
        for (int k = 0; k < KEYS && k < n; k++) {
            long last = (n - 1 - k) / KEYS;
            if (!RowKind.values()[(int) (last % 4)].isRetract()) {
                out.add("(" + k + ", " + last + ", d" + (k % 2) + ")");
            }
        }
        out.sort(null);
        return out;
    }

    private static List<String> appendRowsAfter(long n) {
        List<String> out = new ArrayList<>();
        for (long i = 0; i < n; i++) {
            out.add("(" + i + ", " + i + ", d" + (i % 3) + ")");
        }
        out.sort(null);
        return out;
    }

    /** One kind of table under test: how to create it, what to feed it, what it must hold. */
    private record Case(String name, boolean primaryKey, MapFunction<Long, RowData> sequence,
            Expected expected, boolean lookupChangelog, String... options) {}

    private static final Case PK_LOOKUP = new Case("primary key, lookup changelog", true, new ChangeSequence(),
            StorageFaultsITCase::changeRowsAfter, true, "bucket", "2", "changelog-producer", "lookup",
            "num-sorted-run.compaction-trigger", "3", "snapshot.num-retained.min", "2",
            "snapshot.num-retained.max", "4");

    private static final Case APPEND = new Case("append", false, new AppendSequence(),
            StorageFaultsITCase::appendRowsAfter, false, "snapshot.num-retained.min", "2",
            "snapshot.num-retained.max", "4");

    private static final Case DYNAMIC_BUCKET = new Case("primary key, dynamic bucket", true, new ChangeSequence(),
            StorageFaultsITCase::changeRowsAfter, false, "bucket", "-1", "dynamic-bucket.target-row-num", "6",
            "snapshot.num-retained.min", "2", "snapshot.num-retained.max", "4");

    private static final Case APPEND_COMPACTING = new Case("append, compacting fixed buckets", false,
            new AppendSequence(), StorageFaultsITCase::appendRowsAfter, false, "bucket", "2", "bucket-key", "id",
            "compaction.min.file-num", "2");

    // ---- The tests ----

    @Test
    @Timeout(300)
    void primaryKeyTableWithLookupChangelogSurvivesAFaultAtEachCallOfACommit() throws Exception {
        sweepCommit(PK_LOOKUP);
    }

    @Test
    @Timeout(300)
    void appendTableSurvivesAFaultAtEachCallOfACommit() throws Exception {
        sweepCommit(APPEND);
    }

    @Test
    @Timeout(300)
    void dynamicBucketTableSurvivesAFaultAtEachCallOfACommit() throws Exception {
        sweepCommit(DYNAMIC_BUCKET);
    }

    /**
     * A sweep over the writers' data and changelog file calls (opening, closing and reading files
     * under the buckets: flushes, compactions, lookups, lookup changelog files).
     */
    @Test
    @Timeout(300)
    void primaryKeyTableWithLookupChangelogSurvivesAFaultAtEachFileCallOfItsWriters() throws Exception {
        Predicate<Path> bucketFiles = p -> p.toString().contains("/bucket-");
        FileOperation[] ops = {FileOperation.OPEN_INPUT, FileOperation.OPEN_OUTPUT, FileOperation.CLOSE_OUTPUT};
        Run recording = run(PK_LOOKUP, io -> CommitFaults.at(io, Integer.MAX_VALUE, null), null);
        int calls = (int) recording.calls().stream()
                .filter(c -> bucketFiles.test(c.path()) && java.util.Arrays.asList(ops).contains(c.operation()))
                .count();
        int stride = EVERY_CALL ? 1 : Math.max(1, (calls + MAX_POINTS - 1) / MAX_POINTS);
        System.out.println(PK_LOOKUP.name() + ": the writers make " + calls + " calls on files under the buckets; "
                + "failing every " + stride + "-th");
        assertThat(calls).as("the writers flush, compact and look up").isGreaterThan(20);
        for (int n = 1; n <= calls; n += stride) {
            int call = n;
            Run r = run(PK_LOOKUP, fromStart(io -> io.armOnce(call, bucketFiles, ops)), "writer file call " + n
                    + " of " + calls);
            assertThat(r.injected()).as("writer file call %s failed", n).isEqualTo(1);
        }
    }

    /**
     * Writing a manifest of a commit fails (not created, or closed and then reported as failed), which
     * fails the commit and the job; then the m-th metadata call ({@code snapshot/}, {@code manifest/})
     * of the recovery fails too: in the restored committer's check for what is committed, its commit,
     * or the writers' restore. (A failed snapshot publication does not fail the job: the commit finds
     * out whether its snapshot landed and retries.)
     */
    @Test
    @Timeout(120)
    void aSecondFaultWhileRecoveringFromAFailedCommitIsRecoveredToo() throws Exception {
        Predicate<Path> manifestFile = p -> p.name().startsWith("manifest-");
        Predicate<Path> metadata = p -> p.toString().contains("/snapshot/") || p.toString().contains("/manifest/");
        int[] recoveryCalls = {1, 4, 16};
        for (int i = 0; i < recoveryCalls.length; i++) {
            int m = recoveryCalls[i];
            boolean written = i % 2 == 1;
            Consumer<FailingFileIO> first = written
                    ? io -> io.armAfterSuccess(manifestFile, FileOperation.CLOSE_OUTPUT)
                    : io -> io.armOnce(1, manifestFile, FileOperation.OPEN_OUTPUT);
            Run r = run(PK_LOOKUP, io -> CommitFaults.at(io, TARGET, first)
                            .thenOnRecovery(again -> again.armOnce(m, metadata)),
                    "writing a manifest (" + (written ? "written" : "not created")
                            + "), then metadata call " + m + " of the recovery");
            assertThat(r.plan().thrown()).as("the commit failed").isNotNull();
            assertThat(r.injected()).as("both faults fired (recovery call %s)", m).isEqualTo(2);
        }
    }

    /** Expiration after a commit fails to delete a snapshot file, a changelog file, a manifest. */
    @Test
    @Timeout(120)
    void faultsDuringExpirationLeaveNoSnapshotWithMissingFiles() throws Exception {
        runWithFault(PK_LOOKUP, "expiration: delete of a snapshot", atTargetCommit(io -> io.armOnce(1,
                p -> p.name().startsWith("snapshot-"), FileOperation.DELETE)), true);
        runWithFault(PK_LOOKUP, "expiration: delete of a changelog file", atTargetCommit(io -> io.armOnce(1,
                p -> p.name().startsWith("changelog-") && p.toString().contains("/bucket-"), FileOperation.DELETE)),
                true);
        runWithFault(PK_LOOKUP, "expiration: delete of a manifest", atTargetCommit(io -> io.armOnce(1,
                p -> p.name().startsWith("manifest-") && !p.name().startsWith("manifest-list-"),
                FileOperation.DELETE)), true);
    }

    /** The writers' compaction fails reading its inputs, and writing its output. */
    @Test
    @Timeout(120)
    void faultsDuringCompactionAreRecoveredFromTheCheckpoint() throws Exception {
        runWithFault(PK_LOOKUP, "compaction: read of an input file", fromStart(io -> io.armOnce(3,
                StorageFaultsITCase::isDataFile, FileOperation.OPEN_INPUT)), false);
        runWithFault(APPEND_COMPACTING, "append compaction: read of an input file", fromStart(io -> io.armOnce(1,
                StorageFaultsITCase::isDataFile, FileOperation.OPEN_INPUT)), false);
    }

    /** Creating, writing and closing a lookup changelog file fails. */
    @Test
    @Timeout(180)
    void faultsWhileProducingTheLookupChangelogAreRecoveredFromTheCheckpoint() throws Exception {
        for (FileOperation op : List.of(FileOperation.OPEN_OUTPUT, FileOperation.WRITE, FileOperation.CLOSE_OUTPUT)) {
            runWithFault(PK_LOOKUP, "lookup changelog: " + op, fromStart(io -> io.armOnce(2,
                    p -> p.name().startsWith("changelog-"), op)), false);
        }
    }

    // ---- Sweeps and single faults ----

    private void sweepCommit(Case c) throws Exception {
        Run recording = run(c, io -> CommitFaults.at(io, TARGET, null), null);
        CommitFaults.Plan plan = recording.plan;
        assertThat(plan.reached()).as("%s: the job made a %s-th data commit", c.name(), TARGET).isTrue();
        int calls = plan.calls();
        Map<String, Integer> kinds = new TreeMap<>();
        for (FailingFileIO.Call call : plan.log()) {
            String name = call.path().name();
            String kind = name.startsWith("manifest-list-") ? "manifest-list" : name.replaceAll("[-.].*", "");
            kinds.merge(call.operation() + " " + kind, 1, Integer::sum);
        }
        int stride = EVERY_CALL ? 1 : Math.max(1, (calls + MAX_POINTS - 1) / MAX_POINTS);
        System.out.println(c.name() + ": the " + TARGET + "-th data commit makes " + calls + " FileIO calls in the "
                + "committer (all threads during it: " + kinds + "); failing every " + stride + "-th");
        assertThat(calls).as("%s: a commit with its expiration makes many calls", c.name()).isGreaterThan(10);
        for (int n = 1; n <= calls; n += stride) {
            boolean performed = (n / stride) % 2 == 1;
            int call = n;
            Consumer<FailingFileIO> arming = performed
                    ? armed -> armed.armOutcomeUnknownInThisThread(call)
                    : armed -> armed.armInThisThread(call);
            Run r = run(c, io -> CommitFaults.at(io, TARGET, arming),
                    "call " + n + " of " + calls + (performed ? ", performed" : ", not performed"));
            assertThat(r.plan.injected()).as("%s: call %s of the commit failed (%s)", c.name(), n, r.plan.log())
                    .isEqualTo(1);
        }
    }

    /** Arms at the start of the target commit (counts calls as a recording run does). */
    private static Function<FailingFileIO, CommitFaults> atTargetCommit(Consumer<FailingFileIO> arming) {
        return io -> CommitFaults.at(io, TARGET, arming);
    }

    /** Arms before the job starts; commits run plainly. */
    private static Function<FailingFileIO, CommitFaults> fromStart(Consumer<FailingFileIO> arming) {
        return io -> {
            arming.accept(io);
            return CommitFaults.at(io, Integer.MAX_VALUE, null);
        };
    }

    private void runWithFault(Case c, String what, Function<FailingFileIO, CommitFaults> action,
            boolean duringTargetCommit) throws Exception {
        Run r = run(c, action, what);
        int injected = duringTargetCommit ? r.plan.injected() : r.injected();
        assertThat(injected).as("%s: %s failed once", c.name(), what).isEqualTo(1);
    }

    private static boolean isDataFile(Path p) {
        return p.name().startsWith("data-") && p.toString().contains("/bucket-");
    }

    // ---- One job and its checks ----

    /** A finished run: its plan and the failures injected during the whole job. */
    private record Run(CommitFaults.Plan plan, int injected, List<FailingFileIO.Call> calls) {}

    private Run run(Case c, Function<FailingFileIO, CommitFaults> actionFor, String fault)
            throws Exception {
        java.nio.file.Path dir = tmp.resolve("t" + tables++);
        FailingFileIO io = FailingFileIO.wrap(LocalFileIO.INSTANCE);
        SinkTables.create(LocalFileIO.INSTANCE, new Path(dir.toString()), c.primaryKey(), true, c.options());
        FileStoreTable table = FileStoreTable.load(io, new Path(dir.toString()), "default.test");
        CommitFaults action = actionFor.apply(io);
        String context = c.name() + (fault == null ? ", recording" : ", fault at " + fault);
        RESTORES.set(0);
        try {
            Configuration conf = Jobs.streamingConfig(2, 40L);
            conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
            conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 3);
            conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(20));
            conf.set(CheckpointingOptions.TOLERABLE_FAILURE_NUMBER, 0);
            StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
            DataStream<RowData> input = CheckpointedBatchSource.stream(env, "batches", c.sequence(), BATCHES, BATCH,
                            TYPE_INFO)
                    .map(new RestoreCounter()).returns(TYPE_INFO).setParallelism(1);
            PaimonSinkBuilder.forTable(table).parallelism(2).commitAction(action).build().addTo(input);
            try {
                env.execute(context);
            } catch (Exception e) {
                throw new AssertionError(context + ": the job failed for good", e);
            }
            CommitFaults.Plan plan = action.plan();
            io.disarm();
            if (plan.thrown() != null) {
                assertThat(RESTORES.get()).as("%s: the failed commit restarted the job from its checkpoint", context)
                        .isGreaterThanOrEqualTo(1);
            }
            check(c, FileStoreTable.load(LocalFileIO.INSTANCE, new Path(dir.toString()), "default.test"), dir,
                    context);
            return new Run(plan, io.failuresInjected(), io.calls());
        } finally {
            action.release();
            io.release();
        }
    }

    private void check(Case c, FileStoreTable table, java.nio.file.Path dir, String context) throws Exception {
        List<String> expected = c.expected().after((long) BATCHES * BATCH);
        assertThat(ChangeReplay.rows(table)).as("%s: the table's rows", context).containsExactlyElementsOf(expected);
        Changelogs.assertNoCommitIdentifierTwice(table);

        // Each retained snapshot holds the rows of a prefix of the batches, in order.
        int lastPrefix = 0;
        for (Snapshot s : RetainedSnapshots.all(table)) {
            List<String> held = ChangeReplay.rows(table.copy(Map.of("scan.snapshot-id", Long.toString(s.id()))));
            int prefix = -1;
            for (int b = lastPrefix; b <= BATCHES && prefix < 0; b++) {
                if (held.equals(c.expected().after((long) b * BATCH))) {
                    prefix = b;
                }
            }
            assertThat(prefix).as("%s: snapshot %s holds the rows of the first batches (%s)", context, s.id(), held)
                    .isGreaterThanOrEqualTo(0);
            lastPrefix = prefix;
        }
        assertThat(RetainedSnapshots.assertEveryNeededFileExists(table)).isPositive();
        assertThat(ChangeReplay.replayedChangelog(table, c.lookupChangelog(), context)).as("%s: the changelog replays to the table",
                context).containsExactlyElementsOf(expected);
        Set<String> orphans = RetainedSnapshots.assertOrphanRemovalFindsExactlyTheUnreferencedFiles(table, dir);
        System.out.println(context + ": " + RetainedSnapshots.all(table).size() + " retained snapshots checked, "
                + RESTORES.get() + " restores, orphans found: " + orphans);
    }

    static final AtomicInteger RESTORES = new AtomicInteger();

    /** Passes rows through; counts restores from a checkpoint. */
    static final class RestoreCounter extends RichMapFunction<RowData, RowData> implements CheckpointedFunction {
        @Override
        public RowData map(RowData row) {
            return row;
        }

        @Override
        public void initializeState(FunctionInitializationContext context) {
            if (context.isRestored()) {
                RESTORES.incrementAndGet();
            }
        }

        @Override
        public void snapshotState(FunctionSnapshotContext context) {}
    }
}
