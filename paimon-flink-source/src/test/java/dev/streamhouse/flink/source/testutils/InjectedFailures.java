package dev.streamhouse.flink.source.testutils;

import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Failures injected into source jobs on a MiniCluster in this JVM: a budget of
 * failures ({@link #LEFT}, set before each job), the cluster configuration that restarts after them,
 * and a map that fails only after a checkpoint with progress completed, so that every failure
 * restores real state.
 */
public final class InjectedFailures {
    /** How many failures may still be injected; operators take one per failure. */
    public static final AtomicInteger LEFT = new AtomicInteger();

    private InjectedFailures() {}

    /** Takes one failure from the budget; false when it is used up. */
    public static boolean take() {
        while (true) {
            int left = LEFT.get();
            if (left <= 0) {
                return false;
            }
            if (LEFT.compareAndSet(left, left - 1)) {
                return true;
            }
        }
    }

    /** Heap state and a fixed-delay restart strategy of 10 attempts, 100 ms apart. */
    public static Configuration restartingClusterConfig() {
        Configuration c = new Configuration();
        c.setString("state.backend.type", "hashmap");
        c.setString("restart-strategy.type", "fixed-delay");
        c.setString("restart-strategy.fixed-delay.attempts", "10");
        c.setString("restart-strategy.fixed-delay.delay", "100 ms");
        return c;
    }

    /**
     * Passes rows through and fails (while the budget allows) on the first row after a checkpoint
     * completed for which this very instance had passed at least {@code minRows} rows: every failure
     * restores a checkpoint with that much progress.
     */
    public static final class AfterCheckpointWithRows extends RichMapFunction<String, String>
            implements CheckpointedFunction, CheckpointListener {
        private final long minRows;
        private transient long rows;
        private transient Map<Long, Long> rowsAtCheckpoint;
        private transient boolean armed;

        public AfterCheckpointWithRows(long minRows) {
            this.minRows = minRows;
        }

        @Override
        public void initializeState(FunctionInitializationContext context) {
            rowsAtCheckpoint = new HashMap<>();
        }

        @Override
        public void snapshotState(FunctionSnapshotContext context) {
            rowsAtCheckpoint.put(context.getCheckpointId(), rows);
        }

        @Override
        public void notifyCheckpointComplete(long checkpointId) {
            Long atCheckpoint = rowsAtCheckpoint.get(checkpointId);
            if (atCheckpoint != null && atCheckpoint >= minRows) {
                armed = true;
            }
        }

        @Override
        public String map(String value) {
            rows++;
            if (armed && take()) {
                throw new IllegalStateException("Injected failure after " + rows + " rows");
            }
            return value;
        }
    }
}
