package dev.streamhouse.flink.sink;

import dev.streamhouse.flink.sink.testutils.Jobs;
import dev.streamhouse.flink.sink.testutils.RecordingCommitAction;
import dev.streamhouse.flink.sink.testutils.SinkTables;
import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.manifest.ManifestEntry;
import dev.streamhouse.storage.mergetree.KeyComparator;
import dev.streamhouse.storage.mergetree.KeyValueLayout;
import dev.streamhouse.storage.mergetree.compact.Levels;
import dev.streamhouse.storage.operation.CommitConflictException;
import dev.streamhouse.storage.snapshot.CommitKind;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.testutils.TestTables;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.data.RowData;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;

import static dev.streamhouse.flink.sink.testutils.SinkTables.TYPE_INFO;
import static dev.streamhouse.flink.sink.testutils.SinkTables.flinkRow;
import static dev.streamhouse.flink.sink.testutils.SinkTables.snapshots;
import static org.assertj.core.api.Assertions.assertThat;

/** Two streaming jobs (two commit users) writing one table at the same time. */
class ConcurrentWritersITCase {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = Jobs.miniCluster();

    @TempDir
    java.nio.file.Path tmp;

    /** Row i = (i % keys, base + i, partition): key i % keys gets value base + i. */
    static final class Sequence implements GeneratorFunction<Long, RowData> {
        private final int keys;
        private final long base;
        private final String partition;

        Sequence(int keys, long base, String partition) {
            this.keys = keys;
            this.base = base;
            this.partition = partition;
        }

        @Override
        public RowData map(Long i) {
            return flinkRow((int) (i % keys), base + i, partition);
        }
    }

    private static JobClient start(FileStoreTable table, Sequence sequence, long n, String commitUser, int restarts)
            throws Exception {
        Configuration c = Jobs.streamingConfig(1, 100L);
        c.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        c.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, restarts);
        c.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(100));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(c);
        DataStream<RowData> input = env.fromSource(new DataGeneratorSource<>(sequence, n,
                RateLimiterStrategy.perSecond(1500), TYPE_INFO), WatermarkStrategy.noWatermarks(), "sequence");
        PaimonSinkBuilder.forTable(table).commitUser(commitUser).commitAction(new RecordingCommitAction()).build()
                .addTo(input);
        return env.executeAsync(commitUser);
    }

    /** The job's failure, or empty if it finished. */
    private static Optional<Throwable> outcome(JobClient job) throws InterruptedException {
        try {
            job.getJobExecutionResult().get();
            return Optional.empty();
        } catch (ExecutionException e) {
            return Optional.of(e.getCause());
        }
    }

    /** Every snapshot can be read, and no bucket of any snapshot breaks the LSM level invariants. */
    private static void assertEverySnapshotReadableAndLevelsValid(FileStoreTable table) throws Exception {
        KeyComparator keys = new KeyComparator(KeyValueLayout.of(table.schema()).keyType());
        for (Snapshot s : snapshots(table)) {
            TestTables.read(table.newReadBuilder().withSnapshot(s.id()));
            Map<String, List<DataFileMeta>> buckets = new HashMap<>();
            for (ManifestEntry e : table.snapshotEntries().liveEntries(s, (Set<BinaryRow>) null)) {
                buckets.computeIfAbsent(e.partition() + "/" + e.bucket(), b -> new ArrayList<>()).add(e.file());
            }
            for (Map.Entry<String, List<DataFileMeta>> b : buckets.entrySet()) {
                try {
                    new Levels(keys, b.getValue(), 2);
                } catch (IllegalStateException e) {
                    throw new AssertionError("Snapshot " + s.id() + " (" + s.commitKind() + " of " + s.commitUser()
                            + ") breaks the LSM levels of bucket " + b.getKey() + ": " + e.getMessage(), e);
                }
            }
        }
    }

    @Test
    @Timeout(120)
    void jobsWritingDifferentPartitionsBothCommitEveryRowOnce() throws Exception {
        FileStoreTable table = SinkTables.primaryKey(tmp.resolve("t"), "bucket", "2",
                "num-sorted-run.compaction-trigger", "2");
        RecordingCommitAction.reset();
        int n = 3000;
        JobClient a = start(table, new Sequence(n, 0, "a"), n, "job-a", 0);
        JobClient b = start(table, new Sequence(n, 1_000_000, "b"), n, "job-b", 0);
        assertThat(outcome(a)).as("job a").isEmpty();
        assertThat(outcome(b)).as("job b").isEmpty();
        assertThat(RecordingCommitAction.FAILURES).as("no commit failed").isEmpty();

        List<String> expected = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            expected.add("+I(" + i + ", " + i + ", a)");
            expected.add("+I(" + i + ", " + (1_000_000 + i) + ", b)");
        }
        expected.sort(null);
        assertThat(TestTables.readAll(table)).containsExactlyElementsOf(expected);

        // Both committed while the other was running: their snapshots interleave.
        List<String> users = new ArrayList<>();
        Map<String, Long> lastIdentifier = new HashMap<>();
        for (Snapshot s : snapshots(table)) {
            if (users.isEmpty() || !users.get(users.size() - 1).equals(s.commitUser())) {
                users.add(s.commitUser());
            }
            Long previous = lastIdentifier.put(s.commitUser() + "/" + s.commitKind(), s.commitIdentifier());
            assertThat(s.commitIdentifier()).as("identifiers of %s %s increase", s.commitUser(), s.commitKind())
                    .isGreaterThan(previous == null ? Long.MIN_VALUE : previous);
        }
        assertThat(users.size()).as("runs of snapshots by one job: %s", users).isGreaterThan(2);
        assertEverySnapshotReadableAndLevelsValid(table);
    }

    @Test
    @Timeout(120)
    void jobsCompactingTheSameBucketNeverCorruptTheTable() throws Exception {
        FileStoreTable table = SinkTables.create(tmp.resolve("t"), true, false, "bucket", "1",
                // One level above 0: every compaction of either job writes to level 1.
                "num-sorted-run.compaction-trigger", "2", "num-levels", "2");
        RecordingCommitAction.reset();
        int keys = 200;
        int n = 4000;
        JobClient a = start(table, new Sequence(keys, 0, "x"), n, "job-a", 4);
        JobClient b = start(table, new Sequence(keys, 1_000_000, "x"), n, "job-b", 4);
        Optional<Throwable> outcomeA = outcome(a);
        Optional<Throwable> outcomeB = outcome(b);
        System.out.println("job a: " + outcomeA.map(ExceptionUtils::stringifyException).orElse("finished"));
        System.out.println("job b: " + outcomeB.map(ExceptionUtils::stringifyException).orElse("finished"));
        System.out.println("commit failures: " + RecordingCommitAction.FAILURES);
        assertEverySnapshotReadableAndLevelsValid(table);

        List<RuntimeException> failures = new ArrayList<>();
        RecordingCommitAction.FAILURES.values().forEach(failures::addAll);
        assertThat(failures).as("the concurrent compactions conflicted").isNotEmpty();
        for (RuntimeException e : failures) {
            assertThat(e).isInstanceOf(CommitConflictException.class);
            assertThat(e.getMessage()).contains(table.fullName()).contains("bucket 0");
        }
        for (Optional<Throwable> o : List.of(outcomeA, outcomeB)) {
            o.ifPresent(t -> assertThat(ExceptionUtils.findThrowable(t, CommitConflictException.class))
                    .as("a job fails for good only by a commit conflict: %s", ExceptionUtils.stringifyException(t))
                    .isPresent());
        }

        // Each key holds a value one of the jobs wrote for it; if both finished, the last value one of
        // them wrote (sequence numbers of the two writers may tie; either value is then valid).
        List<String> rows = TestTables.readAll(table);
        assertThat(rows).hasSize(keys);
        for (String row : rows) {
            String[] f = row.substring(3, row.length() - 1).split(", ");
            int k = Integer.parseInt(f[0]);
            long v = Long.parseLong(f[1]);
            long i = v >= 1_000_000 ? v - 1_000_000 : v;
            assertThat(i % keys).as("row %s holds a value written for its key", row).isEqualTo(k);
            assertThat(i).as("row %s holds a value written for its key", row).isLessThan(n);
            if (outcomeA.isEmpty() && outcomeB.isEmpty()) {
                assertThat(i).as("row %s holds the last value a job wrote for its key", row)
                        .isGreaterThanOrEqualTo(n - keys);
            }
        }
        assertThat(snapshots(table)).as("compactions were committed")
                .anyMatch(s -> s.commitKind() == CommitKind.COMPACT);
    }
}
