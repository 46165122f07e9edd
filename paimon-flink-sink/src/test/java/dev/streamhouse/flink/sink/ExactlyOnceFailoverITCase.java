package dev.streamhouse.flink.sink;

import dev.streamhouse.flink.sink.testutils.Changelogs;
import dev.streamhouse.flink.sink.testutils.Changelogs.Change;
import dev.streamhouse.flink.sink.testutils.FailingCommitAction;
import dev.streamhouse.flink.sink.testutils.FailingMap;
import dev.streamhouse.flink.sink.testutils.FailurePlan;
import dev.streamhouse.flink.sink.testutils.SplitCommitAction;
import dev.streamhouse.flink.sink.testutils.Jobs;
import dev.streamhouse.flink.sink.testutils.SinkTables;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.testutils.TestTables;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static dev.streamhouse.flink.sink.testutils.SinkTables.TYPE_INFO;
import static dev.streamhouse.flink.sink.testutils.SinkTables.flinkRow;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The proof of exactly-once: a streaming job writes a known sequence while {@link FailurePlan} makes it
 * fail {@value #FAILURES_PER_POINT} times at each of four points (a record before the writers, an
 * operator's snapshotState, the committer before a commit, and the committer right after a snapshot
 * was published but before its notifyCheckpointComplete/restore returned). Afterwards the table holds
 * exactly the expected rows and its changelog, read by the storage's streaming scan from snapshot 1,
 * shows every change exactly once.
 *
 * <p>Recipe for "committed, but the committer did not learn it": the sink's {@link CommitAction} is the
 * committer's only call into the table, so {@link FailingCommitAction} throws after the append commit
 * returned. The snapshot is on disk while the checkpoint's committables are still pending in the
 * committer's state; the restore must find the snapshot by (commit user, checkpoint id) and not commit
 * again. No timing is involved: the failure happens at the exact point every time it is scheduled.
 *
 * <p>The seed is printed with the schedule; rerun one with {@code -Dfailover.seed=<seed>}. The
 * sequence source is Flink's {@link DataGeneratorSource} over the record index (checkpointed, so a
 * restore replays from the checkpoint's index); it slows down while failures are still scheduled so
 * the job cannot end before all of them fired.
 */
class ExactlyOnceFailoverITCase {
    private static final int FAILURES_PER_POINT = 3;
    private static final int FAILURES = FAILURES_PER_POINT * FailurePlan.Point.CLASSIC.size();

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = Jobs.miniCluster();

    @RegisterExtension
    static final dev.streamhouse.fs.s3.S3ProxyExtension S3 = new dev.streamhouse.fs.s3.S3ProxyExtension();

    @TempDir
    java.nio.file.Path tmp;

    // ---- The input sequences ----

    /** The first input index of the last fifth of the running job's input. */
    private static volatile long inputTail = Long.MAX_VALUE;

    /**
     * Sleeps while failures are scheduled, so the job lasts until the last one fired: 2 ms a row, and
     * 25 ms a row in the last fifth of the input, so a slow store (S3 on a loaded machine) still sees
     * every failure before the input runs out.
     */
    private static void paceWhileFailuresLeft(long i) throws InterruptedException {
        if (!FailurePlan.done()) {
            Thread.sleep(i >= inputTail ? 25 : 2);
        }
    }

    /** Row i = (i, i, d(i % 3)), inserts. */
    static final class AppendSequence implements GeneratorFunction<Long, RowData> {
        @Override
        public RowData map(Long i) throws Exception {
            paceWhileFailuresLeft(i);
            return flinkRow(i.intValue(), i, "d" + (i % 3));
        }
    }

    private static final int KEYS = 200;

    /**
     * Event i is event j = i / KEYS of key k = i % KEYS, in partition d(k % 2), with value j; by j % 4 it
     * is +I, -U, +U, -D (so a key is inserted, retracted, updated and deleted, again and again).
     */
    static final class ChangeSequence implements GeneratorFunction<Long, RowData> {
        @Override
        public RowData map(Long i) throws Exception {
            paceWhileFailuresLeft(i);
            int k = (int) (i % KEYS);
            long j = i / KEYS;
            return flinkRow(flinkKind(j), k, j, "d" + (k % 2));
        }
    }

    private static org.apache.flink.types.RowKind flinkKind(long j) {
        switch ((int) (j % 4)) {
            case 0:
                return org.apache.flink.types.RowKind.INSERT;
            case 1:
                return org.apache.flink.types.RowKind.UPDATE_BEFORE;
            case 2:
                return org.apache.flink.types.RowKind.UPDATE_AFTER;
            default:
                return org.apache.flink.types.RowKind.DELETE;
        }
    }

    private static RowKind kind(long j) {
        return RowKind.values()[(int) (j % 4)];
    }

    /** The rows a deduplicate table holds after the first {@code n} events of {@link ChangeSequence}. */
    private static List<String> changeSequenceFinalRows(long n) {
        List<String> out = new ArrayList<>();
        for (int k = 0; k < KEYS && k < n; k++) {
            long last = (n - 1 - k) / KEYS;
            if (!kind(last).isRetract()) {
                out.add("(" + k + ", " + last + ", d" + (k % 2) + ")");
            }
        }
        out.sort(null);
        return out;
    }

    /** The table's rows without their row kinds, sorted. */
    private static List<String> merged(FileStoreTable table) throws java.io.IOException {
        return TestTables.readAll(table).stream().map(r -> r.substring(2)).sorted().toList();
    }

    // ---- The job ----

    private String runWithFailures(FileStoreTable table, GeneratorFunction<Long, RowData> sequence, long n,
            TestInfo info) throws Exception {
        return runWithFailures(table, sequence, n, info, FailurePlan.Point.CLASSIC, new FailingCommitAction());
    }

    private String runWithFailures(FileStoreTable table, GeneratorFunction<Long, RowData> sequence, long n,
            TestInfo info, java.util.Set<FailurePlan.Point> points, CommitAction action) throws Exception {
        int failures = FAILURES_PER_POINT * points.size();
        long seed = FailurePlan.seed();
        String schedule = FailurePlan.arm(seed, FAILURES_PER_POINT, points);
        inputTail = n - n / 5;
        System.out.println(info.getDisplayName() + ": failure schedule, " + schedule);
        FailingMap.RESTORES.set(0);

        Configuration c = Jobs.streamingConfig(2, 100L);
        c.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        c.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, failures + 5);
        c.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(50));
        c.set(CheckpointingOptions.TOLERABLE_FAILURE_NUMBER, 0);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(c);
        DataStream<RowData> input = env.fromSource(new DataGeneratorSource<>(sequence, n, TYPE_INFO),
                        WatermarkStrategy.noWatermarks(), "sequence").setParallelism(1)
                .map(new FailingMap()).returns(TYPE_INFO).setParallelism(1);
        PaimonSinkBuilder.forTable(table).parallelism(2).commitAction(action).build().addTo(input);
        try {
            env.execute(info.getDisplayName());
        } catch (Exception e) {
            throw new AssertionError("The job failed for good; rerun with -Dfailover.seed=" + seed + " (" + schedule
                    + ")", e);
        }
        assertThat(FailurePlan.remaining()).as("every scheduled failure fired before the input ended (%s)", schedule)
                .isZero();
        assertThat(FailingMap.RESTORES.get()).as("every failure restored the job from a checkpoint (%s)", schedule)
                .isEqualTo(failures);
        Changelogs.assertNoCommitIdentifierTwice(table);
        return schedule;
    }

    // ---- The tests ----

    @Test
    @Timeout(180)
    void appendTableKeepsEveryRowExactlyOnce(TestInfo info) throws Exception {
        FileStoreTable table = SinkTables.append(tmp.resolve("t"));
        int n = 6000;
        String schedule = runWithFailures(table, new AppendSequence(), n, info);

        List<String> expected = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            expected.add("+I(" + i + ", " + i + ", d" + (i % 3) + ")");
        }
        expected.sort(null);
        assertThat(TestTables.readAll(table)).as(schedule).containsExactlyElementsOf(expected);

        List<String> changes = new ArrayList<>();
        for (Change c : Changelogs.readFromFirstSnapshot(table)) {
            changes.add(c.row().toString());
        }
        changes.sort(null);
        assertThat(changes).as("the changelog inserts every row exactly once (%s)", schedule)
                .containsExactlyElementsOf(expected);
    }

    /**
     * A fixed-bucket append table whose writers compact their buckets: every row exactly once, each
     * bucket in write order, also across failures between a checkpoint's APPEND and COMPACT snapshots
     * (the restored committer drops that compaction and deletes its files).
     */
    @Test
    @Timeout(240)
    void fixedBucketAppendTableCompactingInItsWritersKeepsEveryRowOnceAndInOrder(TestInfo info) throws Exception {
        FileStoreTable table = SinkTables.append(tmp.resolve("t"), "bucket", "2", "bucket-key", "id",
                "compaction.min.file-num", "3");
        int n = 6000;
        java.util.Set<FailurePlan.Point> points = java.util.EnumSet.copyOf(FailurePlan.Point.CLASSIC);
        points.add(FailurePlan.Point.BETWEEN_SNAPSHOTS);
        String schedule = runWithFailures(table, new AppendSequence(), n, info, points, new SplitCommitAction());
        assertThat(FailurePlan.fired()).containsEntry(FailurePlan.Point.BETWEEN_SNAPSHOTS, FAILURES_PER_POINT);

        List<String> expected = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            expected.add("+I(" + i + ", " + i + ", d" + (i % 3) + ")");
        }
        expected.sort(null);
        assertThat(TestTables.readAll(table)).as(schedule).containsExactlyElementsOf(expected);
        assertThat(SinkTables.snapshots(table)).as("the writers compacted (%s)", schedule)
                .anyMatch(s -> s.commitKind() == dev.streamhouse.storage.snapshot.CommitKind.COMPACT);
        for (dev.streamhouse.storage.table.source.DataSplit split : table.newReadBuilder().newScan().plan().splits()) {
            List<Integer> ids = new ArrayList<>();
            table.newReadBuilder().newRead().createReader(split).forEachRemaining(r -> ids.add(r.intAt(0)));
            List<Integer> sorted = new ArrayList<>(ids);
            sorted.sort(null);
            assertThat(ids).as("rows of %s/%s in write order (%s)", split.partition(), split.bucket(), schedule)
                    .isEqualTo(sorted);
        }

        List<String> changes = new ArrayList<>();
        for (Change c : Changelogs.readFromFirstSnapshot(table)) {
            changes.add(c.row().toString());
        }
        changes.sort(null);
        assertThat(changes).as("the changelog inserts every row exactly once (%s)", schedule)
                .containsExactlyElementsOf(expected);
    }

    @Test
    @Timeout(180)
    void primaryKeyTableWithUpdatesAndDeletesEndsInTheExpectedState(TestInfo info) throws Exception {
        primaryKeyTableEndsInTheExpectedState(SinkTables.primaryKey(tmp.resolve("t"), "bucket", "2",
                "num-sorted-run.compaction-trigger", "3"), info);
    }

    /**
     * The same on an {@code s3://} warehouse: snapshots published by conditional PUTs. The S3 code below
     * the sink is the same on every Flink line, so the 2.x runs leave it out (pom.xml, surefire.excludedGroups).
     */
    @Test
    @Tag("default-line-only")
    @Timeout(240)
    void primaryKeyTableOnS3EndsInTheExpectedState(TestInfo info) throws Exception {
        dev.streamhouse.storage.fs.Path root = new dev.streamhouse.storage.fs.Path(S3.uri("failover/t"));
        dev.streamhouse.storage.fs.FileIO s3 = dev.streamhouse.storage.fs.FileIOs.forPath(root,
                new dev.streamhouse.storage.options.Options(S3.s3Options()));
        primaryKeyTableEndsInTheExpectedState(SinkTables.create(s3, root, true, true, "bucket", "2",
                "num-sorted-run.compaction-trigger", "3"), info);
    }

    private void primaryKeyTableEndsInTheExpectedState(FileStoreTable table, TestInfo info) throws Exception {
        long n = 30 * KEYS + 130;
        String schedule = runWithFailures(table, new ChangeSequence(), n, info);

        List<String> expected = changeSequenceFinalRows(n);
        assertThat(merged(table)).as(schedule).containsExactlyElementsOf(expected);

        // Without a changelog producer the stream reads the flushed versions: per key a subsequence
        // of its events (a write buffer keeps each key's last event), in order, none twice, and
        // replaying them gives the final state.
        Map<Integer, Long> lastEvent = new HashMap<>();
        Map<Integer, GenericRow> replayed = new TreeMap<>();
        for (Change c : Changelogs.readFromFirstSnapshot(table)) {
            GenericRow row = c.row();
            int k = row.intAt(0);
            long j = row.longAt(1);
            Long previous = lastEvent.put(k, j);
            assertThat(j).as("key %s: event %s after event %s in snapshot %s (%s)", k, j, previous, c.snapshotId(),
                    schedule).isGreaterThan(previous == null ? -1 : previous);
            assertThat(row.rowKind()).as("kind of event %s of key %s (%s)", j, k, schedule).isEqualTo(kind(j));
            if (row.rowKind().isRetract()) {
                replayed.remove(k);
            } else {
                replayed.put(k, row);
            }
        }
        List<String> replayedRows = new ArrayList<>();
        for (GenericRow r : replayed.values()) {
            replayedRows.add("(" + r.intAt(0) + ", " + r.longAt(1) + ", " + r.stringAt(2) + ")");
        }
        replayedRows.sort(null);
        assertThat(replayedRows).as("replaying the changelog (%s)", schedule).containsExactlyElementsOf(expected);
    }

    @Test
    @Timeout(180)
    void inputChangelogEqualsTheInputSequencePerKey(TestInfo info) throws Exception {
        FileStoreTable table = SinkTables.primaryKey(tmp.resolve("t"), "bucket", "2",
                "changelog-producer", "input", "num-sorted-run.compaction-trigger", "3");
        long n = 30 * KEYS + 130;
        String schedule = runWithFailures(table, new ChangeSequence(), n, info);

        assertThat(merged(table)).as(schedule).containsExactlyElementsOf(changeSequenceFinalRows(n));

        Map<Integer, List<String>> expected = new TreeMap<>();
        for (long i = 0; i < n; i++) {
            int k = (int) (i % KEYS);
            long j = i / KEYS;
            expected.computeIfAbsent(k, x -> new ArrayList<>()).add(kind(j).shortString() + "(" + k + ", " + j
                    + ", d" + (k % 2) + ")");
        }
        Map<Integer, List<String>> actual = new TreeMap<>();
        for (Change c : Changelogs.readFromFirstSnapshot(table)) {
            actual.computeIfAbsent(c.row().intAt(0), x -> new ArrayList<>()).add(c.row().toString());
        }
        assertThat(actual).as("the changelog of every key is its input, in order, each change once (%s)", schedule)
                .isEqualTo(expected);
    }

    @Test
    @Timeout(240)
    void lookupChangelogIsExactAcrossFailuresBetweenACheckpointsTwoSnapshots(TestInfo info) throws Exception {
        compactionChangelogIsExactAcrossFailures(info, "lookup");
    }

    @Test
    @Timeout(240)
    void fullCompactionChangelogIsExactAcrossFailuresBetweenACheckpointsTwoSnapshots(TestInfo info)
            throws Exception {
        compactionChangelogIsExactAcrossFailures(info, "full-compaction");
    }

    /**
     * Deletion vectors travel in the COMPACT snapshot: a failure between a checkpoint's two snapshots
     * must neither lose nor repeat the rows they delete (batch reads read the files raw).
     */
    @Test
    @Timeout(240)
    void lookupChangelogWithDeletionVectorsIsExactAcrossFailuresBetweenACheckpointsTwoSnapshots(TestInfo info)
            throws Exception {
        compactionChangelogIsExactAcrossFailures(info, "lookup", "deletion-vectors.enabled", "true");
    }

    private void compactionChangelogIsExactAcrossFailures(TestInfo info, String producer, String... moreOptions)
            throws Exception {
        List<String> options = new ArrayList<>(List.of("bucket", "2", "changelog-producer", producer,
                "num-sorted-run.compaction-trigger", "3"));
        options.addAll(List.of(moreOptions));
        FileStoreTable table = SinkTables.primaryKey(tmp.resolve("t"), options.toArray(new String[0]));
        long n = 30 * KEYS + 130;
        java.util.Set<FailurePlan.Point> points = java.util.EnumSet.copyOf(FailurePlan.Point.CLASSIC);
        points.add(FailurePlan.Point.BETWEEN_SNAPSHOTS);
        String schedule = runWithFailures(table, new ChangeSequence(), n, info, points, new SplitCommitAction());
        assertThat(FailurePlan.fired()).containsEntry(FailurePlan.Point.BETWEEN_SNAPSHOTS, FAILURES_PER_POINT);

        List<String> expected = changeSequenceFinalRows(n);
        assertThat(merged(table)).as(schedule).containsExactlyElementsOf(expected);

        // The lookup changelog is exact: each retraction retracts the current row of its key, +I
        // and +U only reach absent keys, events of a key move forward, and the replay ends in the table.
        Map<Integer, GenericRow> replayed = new TreeMap<>();
        Map<Integer, Long> lastEvent = new HashMap<>();
        for (Change c : Changelogs.readFromFirstSnapshot(table)) {
            GenericRow row = c.row();
            int k = row.intAt(0);
            GenericRow current = replayed.get(k);
            String shown = row + " in snapshot " + c.snapshotId() + " (" + schedule + ")";
            if (row.rowKind().isRetract()) {
                assertThat(current).as("retraction of the current row: %s", shown).isNotNull();
                assertThat(current.longAt(1)).as("retraction of the current row: %s", shown).isEqualTo(row.longAt(1));
                replayed.remove(k);
            } else {
                assertThat(current).as("addition to an absent key: %s", shown).isNull();
                Long previous = lastEvent.put(k, row.longAt(1));
                assertThat(row.longAt(1)).as("events move forward: %s", shown)
                        .isGreaterThan(previous == null ? -1 : previous);
                replayed.put(k, row);
            }
        }
        List<String> replayedRows = new ArrayList<>();
        for (GenericRow r : replayed.values()) {
            replayedRows.add("(" + r.intAt(0) + ", " + r.longAt(1) + ", " + r.stringAt(2) + ")");
        }
        replayedRows.sort(null);
        assertThat(replayedRows).as("replaying the lookup changelog (%s)", schedule).containsExactlyElementsOf(expected);
    }
}
