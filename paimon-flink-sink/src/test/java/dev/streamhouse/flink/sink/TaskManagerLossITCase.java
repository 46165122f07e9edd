package dev.streamhouse.flink.sink;

import dev.streamhouse.flink.sink.testutils.Jobs;
import dev.streamhouse.flink.sink.testutils.SinkTables;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.testutils.TestTables;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.HeartbeatManagerOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.StateBackendOptions;
import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.connector.datagen.source.GeneratorFunction;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.RowData;
import org.apache.flink.test.junit5.InjectMiniCluster;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.streamhouse.flink.sink.testutils.SinkTables.TYPE_INFO;
import static dev.streamhouse.flink.sink.testutils.SinkTables.flinkRow;
import static dev.streamhouse.flink.sink.testutils.SinkTables.snapshots;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The finished-tasks case of docs/architecture.md with a lost TaskManager: one writer of a bounded streaming job
 * finishes early; then the TaskManagers go away and the job restores on new ones. Apache Paimon
 * 1.3.1 was seen losing the finished writer's last rows here. Every row must be in the table once.
 * (The TaskManagers of a MiniCluster shut down gracefully in this JVM; a process crash is what the
 * standalone-cluster tests of paimon-sql-runner cover.)
 */
class TaskManagerLossITCase {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = new MiniClusterExtension(
            new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(2)
                    .setNumberSlotsPerTaskManager(1)
                    .setConfiguration(config())
                    .build());

    private static Configuration config() {
        Configuration c = new Configuration();
        c.set(StateBackendOptions.STATE_BACKEND, "hashmap");
        c.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        c.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 10);
        c.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(100));
        c.set(HeartbeatManagerOptions.HEARTBEAT_INTERVAL, Duration.ofMillis(500));
        c.set(HeartbeatManagerOptions.HEARTBEAT_TIMEOUT, Duration.ofMillis(3000));
        return c;
    }

    @TempDir
    java.nio.file.Path tmp;

    static final AtomicBoolean ONE_INPUT_ENDED = new AtomicBoolean();
    static final AtomicInteger CHECKPOINTS_AFTER_END = new AtomicInteger();
    static final AtomicInteger RESTORES = new AtomicInteger();

    /** Passes rows through; records end of input, later completed checkpoints and restores. */
    static final class Observer extends AbstractStreamOperator<RowData>
            implements OneInputStreamOperator<RowData, RowData>, BoundedOneInput {
        @Override
        public void initializeState(StateInitializationContext context) throws Exception {
            super.initializeState(context);
            if (context.isRestored()) {
                RESTORES.incrementAndGet();
            }
        }

        @Override
        public void processElement(StreamRecord<RowData> element) {
            output.collect(element);
        }

        @Override
        public void notifyCheckpointComplete(long checkpointId) throws Exception {
            super.notifyCheckpointComplete(checkpointId);
            if (ONE_INPUT_ENDED.get()) {
                CHECKPOINTS_AFTER_END.incrementAndGet();
            }
        }

        @Override
        public void endInput() {
            ONE_INPUT_ENDED.set(true);
        }
    }

    /** The second half of the values is slow, so one reader ends long before the other. */
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
    void finishedWritersFilesSurviveLosingTheTaskManagers(@InjectMiniCluster MiniCluster cluster) throws Exception {
        FileStoreTable table = SinkTables.append(tmp.resolve("t"));
        int n = 4000;
        ONE_INPUT_ENDED.set(false);
        CHECKPOINTS_AFTER_END.set(0);
        RESTORES.set(0);
        StreamExecutionEnvironment env = Jobs.streaming(2, 100L);
        DataStream<RowData> input = env.fromSource(new DataGeneratorSource<>(new SlowSecondHalf(n), n, TYPE_INFO),
                WatermarkStrategy.noWatermarks(), "datagen").transform("observer", TYPE_INFO, new Observer());
        PaimonSink sink = PaimonSinkBuilder.forTable(table).build();
        sink.addTo(input);
        JobClient job = env.executeAsync();

        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (CHECKPOINTS_AFTER_END.get() < 2) {
            assertThat(System.nanoTime()).as("one writer finished and checkpoints went on").isLessThan(deadline);
            Thread.sleep(20);
        }
        cluster.terminateTaskManager(0).get();
        cluster.terminateTaskManager(1).get();
        cluster.startTaskManager();
        cluster.startTaskManager();
        job.getJobExecutionResult().get(120, TimeUnit.SECONDS);

        assertThat(RESTORES.get()).as("the job restored from a checkpoint").isPositive();
        List<String> ids = new ArrayList<>();
        for (String row : TestTables.readAll(table)) {
            ids.add(row.substring(3, row.indexOf(',')));
        }
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            expected.add(Integer.toString(i));
        }
        assertThat(ids).containsExactlyInAnyOrderElementsOf(expected);
        assertThat(snapshots(table)).allMatch(s -> s.commitIdentifier() < Snapshot.BATCH_COMMIT_IDENTIFIER);
    }
}
