package dev.streamhouse.flink.source;

import dev.streamhouse.flink.source.testutils.ChainedToInput;
import dev.streamhouse.flink.source.testutils.FlinkRows;
import dev.streamhouse.flink.source.testutils.InjectedFailures;
import dev.streamhouse.flink.source.testutils.SourceTestTables;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.testutils.TestTables;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.MapFunction;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A failure in the middle of a split, after (streaming) or without (batch) checkpoints, loses no row
 * and duplicates none. The job's classes load from the test class path (no user jar), so the static
 * counters below are shared between the test and the tasks of the in-process MiniCluster.
 */
class PaimonSourceFailoverITCase {
    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = new MiniClusterExtension(
            new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(4)
                    .setConfiguration(InjectedFailures.restartingClusterConfig())
                    .build());

    /** The most rows any collector instance got back from a checkpoint when restored. */
    static final AtomicInteger MOST_ROWS_RESTORED = new AtomicInteger();
    static final ConcurrentLinkedQueue<String> RESULT = new ConcurrentLinkedQueue<>();

    @TempDir
    java.nio.file.Path tmp;

    @BeforeEach
    void reset() {
        InjectedFailures.LEFT.set(0);
        MOST_ROWS_RESTORED.set(0);
        RESULT.clear();
    }

    private static DataStream<String> readAsStrings(StreamExecutionEnvironment env, PaimonSource source) {
        RowType type = source.producedType();
        return env.fromSource(source, WatermarkStrategy.noWatermarks(), "paimon")
                .map(r -> FlinkRows.show(r, type))
                .returns(Types.STRING);
    }

    /**
     * Streaming mode with checkpoints every 100 ms; each split holds 2000 rows and the pipeline is slowed
     * down, so a checkpoint completes while splits are half read. The failure comes after such a
     * checkpoint: the restored reader must skip exactly the rows the restored downstream state has.
     */
    @Test
    void checkpointedReadResumesInTheMiddleOfASplit() throws Exception {
        FileStoreTable table = SourceTestTables.appendTable(tmp, 4000, 2);
        PaimonSource source = PaimonSourceBuilder.forTable(table).build();
        assertThat(source.plan().splits()).hasSize(2);
        InjectedFailures.LEFT.set(2);

        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        env.enableCheckpointing(100);
        readAsStrings(env, source)
                .map(new Throttle())
                .map(new InjectedFailures.AfterCheckpointWithRows(100))
                .transform("exactly-once check", Types.VOID, ChainedToInput.of(new CheckpointedCollector()));
        env.execute("failover mid-split");

        assertThat(InjectedFailures.LEFT).hasValue(0);
        assertThat(MOST_ROWS_RESTORED.get()).as("rows restored from a checkpoint").isPositive();
        List<String> result = new ArrayList<>(RESULT);
        result.sort(null);
        assertThat(result).hasSize(4000).isEqualTo(TestTables.readAll(table));
    }

    /**
     * Batch mode, no checkpoints: a source task fails after finishing one split and half of another.
     * Its region restarts, its splits go back to the enumerator and are read again; what the failed
     * attempt produced is discarded with its blocking result, so nothing appears twice.
     */
    @Test
    void batchRegionFailoverRereadsTheSplitsOfTheFailedTask() throws Exception {
        FileStoreTable table = SourceTestTables.appendTable(tmp, 2000, 4);
        PaimonSource source = PaimonSourceBuilder.forTable(table).build();
        assertThat(source.plan().splits()).hasSize(4);
        InjectedFailures.LEFT.set(1);

        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setRuntimeMode(RuntimeExecutionMode.BATCH);
        env.setParallelism(2);
        readAsStrings(env, source)
                .map(new FailAfterRows(700))
                .rebalance()
                .transform("collect", Types.VOID, ChainedToInput.of(new CheckpointedCollector()))
                .setParallelism(1);
        env.execute("batch failover");

        assertThat(InjectedFailures.LEFT).hasValue(0);
        List<String> result = new ArrayList<>(RESULT);
        result.sort(null);
        assertThat(result).hasSize(2000).isEqualTo(TestTables.readAll(table));
    }

    /** Slows the pipeline to about 2000 rows per second per task, so splits take a while. */
    private static final class Throttle implements MapFunction<String, String> {
        private long count;

        @Override
        public String map(String value) throws Exception {
            if (++count % 2 == 0) {
                Thread.sleep(1);
            }
            return value;
        }
    }

    /** Fails (while {@link InjectedFailures#LEFT} allows) when this attempt of the task reached the given rows. */
    private static final class FailAfterRows implements MapFunction<String, String> {
        private final long failAt;
        private long rows;

        FailAfterRows(long failAt) {
            this.failAt = failAt;
        }

        @Override
        public String map(String value) {
            if (++rows == failAt && InjectedFailures.take()) {
                throw new IllegalStateException("Injected failure after " + rows + " rows");
            }
            return value;
        }
    }

    /**
     * Keeps every row it got in operator state and publishes them to {@link #RESULT} at the end of
     * input. A row replayed after a restore that the restored state already holds shows as a duplicate;
     * a row skipped shows as missing.
     */
    private static final class CheckpointedCollector extends AbstractStreamOperator<Void>
            implements OneInputStreamOperator<String, Void> {
        private transient ListState<String> state;
        private transient List<String> rows;

        @Override
        public void initializeState(StateInitializationContext context) throws Exception {
            super.initializeState(context);
            state = context.getOperatorStateStore().getListState(new ListStateDescriptor<>("rows", String.class));
            rows = new ArrayList<>();
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
        }

        @Override
        public void finish() throws Exception {
            RESULT.addAll(rows);
            super.finish();
        }
    }
}
