package dev.streamhouse.flink.sink;

import dev.streamhouse.flink.sink.testutils.FailAfterCheckpoint;
import dev.streamhouse.flink.sink.testutils.Jobs;
import dev.streamhouse.flink.sink.testutils.SinkTables;
import dev.streamhouse.storage.snapshot.CommitKind;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.testutils.TestTables;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.connector.source.util.ratelimit.RateLimiterStrategy;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.RowData;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.streamhouse.flink.sink.testutils.SinkTables.TYPE_INFO;
import static dev.streamhouse.flink.sink.testutils.SinkTables.flinkRow;
import static dev.streamhouse.flink.sink.testutils.SinkTables.snapshots;
import static org.assertj.core.api.Assertions.assertThat;

/** Streaming jobs with checkpoints and injected failures: every row lands exactly once. */
class StreamingWriteITCase {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = Jobs.miniCluster();

    @TempDir
    java.nio.file.Path tmp;

    private static List<String> ids(FileStoreTable table) throws Exception {
        List<String> out = new ArrayList<>();
        for (String row : TestTables.readAll(table)) {
            out.add(row.substring(3, row.indexOf(',')));
        }
        out.sort(null);
        return out;
    }

    private static List<String> range(int n) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(Integer.toString(i));
        }
        out.sort(null);
        return out;
    }

    /** Snapshots of a streaming job carry checkpoint ids, increasing, never the batch identifier. */
    private static void assertCheckpointIdentifiers(FileStoreTable table, PaimonSink sink) {
        assertCheckpointIdentifiers(table, sink, 0);
    }

    /** As above, for the snapshots after the first {@code earlier} ones (of earlier jobs). */
    private static void assertCheckpointIdentifiers(FileStoreTable table, PaimonSink sink, int earlier) {
        List<Snapshot> all = snapshots(table);
        List<Snapshot> snapshots = all.subList(earlier, all.size());
        assertThat(snapshots.size()).as("commits while running, not only at the end").isGreaterThan(2);
        long previous = Long.MIN_VALUE;
        for (Snapshot s : snapshots) {
            assertThat(s.commitUser()).isEqualTo(sink.commitUser());
            assertThat(s.commitIdentifier()).isLessThan(Snapshot.BATCH_COMMIT_IDENTIFIER).isGreaterThanOrEqualTo(previous);
            previous = s.commitIdentifier();
        }
    }

    @Test
    void appendTableGetsEveryRowExactlyOnceAcrossFailures() throws Exception {
        FileStoreTable table = SinkTables.append(tmp.resolve("t"));
        int n = 4000;
        FailAfterCheckpoint.reset(2);
        StreamExecutionEnvironment env = Jobs.streaming(2, 100L);
        DataStream<RowData> input = env.fromSource(new DataGeneratorSource<>(
                        i -> flinkRow(i.intValue(), i, "d" + (i % 3)), n, RateLimiterStrategy.perSecond(2000), TYPE_INFO),
                        WatermarkStrategy.noWatermarks(), "datagen")
                .map(new FailAfterCheckpoint()).returns(TYPE_INFO);
        PaimonSink sink = PaimonSinkBuilder.forTable(table).build();
        sink.addTo(input);
        env.execute();

        assertThat(FailAfterCheckpoint.FAILURES_LEFT.get()).isZero();
        assertThat(FailAfterCheckpoint.RESTORES.get()).isPositive();
        assertThat(ids(table)).containsExactlyElementsOf(range(n));
        assertCheckpointIdentifiers(table, sink);
    }

    @Test
    void fixedBucketPrimaryKeyTableAcrossFailures() throws Exception {
        // Compact every second sorted run: restores meet checkpoints that carry compactions.
        primaryKeyTableAcrossFailures(SinkTables.primaryKey(tmp.resolve("t"), "bucket", "3",
                "num-sorted-run.compaction-trigger", "2"), 2);
    }

    /** One writer, chained with the committer: the restore wait must not block the committer's restore. */
    @Test
    void singleWriterChainedWithTheCommitterAcrossFailures() throws Exception {
        primaryKeyTableAcrossFailures(SinkTables.primaryKey(tmp.resolve("t"), "bucket", "2",
                "num-sorted-run.compaction-trigger", "2"), 1);
    }

    @Test
    void dynamicBucketPrimaryKeyTableAcrossFailures() throws Exception {
        primaryKeyTableAcrossFailures(SinkTables.primaryKey(tmp.resolve("t"), "bucket", "-1",
                "dynamic-bucket.target-row-num", "50"), 2);
    }

    /**
     * A table a job at parallelism 1 wrote, continued by a streaming job with three writers and two
     * bucket assigners across failures: the restored assigners wait for their keys' commits.
     */
    @Test
    void dynamicBucketTableWrittenAtOneContinuedAtThreeAcrossFailures() throws Exception {
        FileStoreTable table = SinkTables.primaryKey(tmp.resolve("t"), "bucket", "-1",
                "dynamic-bucket.target-row-num", "50");
        StreamExecutionEnvironment first = Jobs.batch(1);
        PaimonSinkBuilder.forTable(table).build().addTo(first.fromSource(new DataGeneratorSource<>(
                i -> flinkRow(i.intValue() * 2, -1, "d" + (i.intValue() * 2 % 2)), 150, TYPE_INFO),
                WatermarkStrategy.noWatermarks(), "datagen").setParallelism(1));
        first.execute();
        primaryKeyTableAcrossFailures(table.copy(java.util.Map.of("dynamic-bucket.assigner-parallelism", "2")), 3);
    }

    /**
     * Row i updates key i % 300 (one source subtask, so each key's updates stay in order): the table
     * must end with every key's last update, after restores that make writers continue buckets from
     * snapshots the restored committer had to complete first.
     */
    private void primaryKeyTableAcrossFailures(FileStoreTable table, int writers) throws Exception {
        int earlier = snapshots(table).size();
        int n = 3000;
        int keys = 300;
        FailAfterCheckpoint.reset(2);
        StreamExecutionEnvironment env = Jobs.streaming(2, 100L);
        DataStream<RowData> input = env.fromSource(new DataGeneratorSource<>(
                        i -> flinkRow((int) (i % keys), i, "d" + (i % keys % 2)), n, RateLimiterStrategy.perSecond(2000),
                        TYPE_INFO), WatermarkStrategy.noWatermarks(), "datagen").setParallelism(1)
                .map(new FailAfterCheckpoint()).returns(TYPE_INFO).setParallelism(1);
        PaimonSink sink = PaimonSinkBuilder.forTable(table).parallelism(writers).build();
        sink.addTo(input);
        env.execute();

        assertThat(FailAfterCheckpoint.FAILURES_LEFT.get()).isZero();
        assertThat(FailAfterCheckpoint.RESTORES.get()).isPositive();
        List<String> expected = new ArrayList<>();
        for (int k = 0; k < keys; k++) {
            expected.add("(" + k + ", " + (n - keys + k) + ", d" + (k % 2) + ")");
        }
        List<String> actual = TestTables.readAll(table).stream().map(s -> s.substring(2)).toList();
        assertThat(actual).containsExactlyInAnyOrderElementsOf(expected);
        assertCheckpointIdentifiers(table, sink, earlier);
        if ("2".equals(table.options().get("num-sorted-run.compaction-trigger"))) {
            assertThat(snapshots(table)).as("compactions were committed")
                    .anyMatch(s -> s.commitKind() == CommitKind.COMPACT);
        }
    }

    // ---- A writer finishes early while another keeps running and then fails ----

    static final AtomicBoolean ONE_INPUT_ENDED = new AtomicBoolean();
    static final AtomicInteger FAILURES_LEFT = new AtomicInteger();
    static final AtomicInteger CHECKPOINTS_AFTER_END_AT_FAILURE = new AtomicInteger();

    /**
     * Passes rows through; notes when its input ends; throws once in a subtask that is still running
     * after another subtask's input ended and two more checkpoints completed (so the ended writer is
     * finished and its last files were committed).
     */
    static final class FailAfterOtherEnded extends AbstractStreamOperator<RowData>
            implements OneInputStreamOperator<RowData, RowData>, BoundedOneInput {
        private transient int checkpointsSinceOtherEnded;

        @Override
        public void processElement(StreamRecord<RowData> element) {
            if (checkpointsSinceOtherEnded >= 2 && FAILURES_LEFT.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                CHECKPOINTS_AFTER_END_AT_FAILURE.set(checkpointsSinceOtherEnded);
                throw new IllegalStateException("Injected failure after another writer finished");
            }
            output.collect(element);
        }

        @Override
        public void notifyCheckpointComplete(long checkpointId) throws Exception {
            super.notifyCheckpointComplete(checkpointId);
            if (ONE_INPUT_ENDED.get()) {
                checkpointsSinceOtherEnded++;
            }
        }

        @Override
        public void endInput() {
            ONE_INPUT_ENDED.set(true);
        }
    }

    /** Values of the second half are slow, so the subtask reading the first half ends early. */
    static final class SlowSecondHalf implements GeneratorFunction<Long, RowData> {
        private final long n;

        SlowSecondHalf(long n) {
            this.n = n;
        }

        @Override
        public RowData map(Long i) throws Exception {
            if (i >= n / 2) {
                Thread.sleep(3);
            }
            return flinkRow(i.intValue(), i, "d" + (i % 2));
        }
    }

    @Test
    void filesOfAWriterThatFinishedEarlyAreCommittedExactlyOnceWhenAnotherFails() throws Exception {
        FileStoreTable table = SinkTables.append(tmp.resolve("t"));
        int n = 2000;
        ONE_INPUT_ENDED.set(false);
        FAILURES_LEFT.set(1);
        CHECKPOINTS_AFTER_END_AT_FAILURE.set(0);
        StreamExecutionEnvironment env = Jobs.streaming(2, 100L);
        DataStream<RowData> input = env.fromSource(new DataGeneratorSource<>(new SlowSecondHalf(n), n, TYPE_INFO),
                        WatermarkStrategy.noWatermarks(), "datagen")
                .transform("fail-after-other-ended", TYPE_INFO, new FailAfterOtherEnded());
        // Bucket-unaware append table with the input's parallelism: forward, writer i sees reader i.
        PaimonSink sink = PaimonSinkBuilder.forTable(table).build();
        sink.addTo(input);
        env.execute();

        assertThat(FAILURES_LEFT.get()).as("the failure was injected").isZero();
        assertThat(CHECKPOINTS_AFTER_END_AT_FAILURE.get()).isGreaterThanOrEqualTo(2);
        assertThat(ids(table)).containsExactlyElementsOf(range(n));
        assertCheckpointIdentifiers(table, sink);
    }
}
