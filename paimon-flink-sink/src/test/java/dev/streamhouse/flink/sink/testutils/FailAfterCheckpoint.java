package dev.streamhouse.flink.sink.testutils;

import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.table.data.RowData;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Passes rows through and throws once its own instance has seen a completed checkpoint, while
 * {@link #FAILURES_LEFT} is positive, so every injected failure restores from a real
 * checkpoint. Counts restores in {@link #RESTORES}. Statics work because the MiniCluster runs in this
 * JVM; reset them before each job.
 */
public final class FailAfterCheckpoint extends RichMapFunction<RowData, RowData>
        implements CheckpointListener, CheckpointedFunction {
    public static final AtomicInteger FAILURES_LEFT = new AtomicInteger();
    public static final AtomicInteger RESTORES = new AtomicInteger();

    private transient boolean checkpointCompleted;

    public static void reset(int failures) {
        FAILURES_LEFT.set(failures);
        RESTORES.set(0);
    }

    @Override
    public RowData map(RowData row) {
        if (checkpointCompleted && FAILURES_LEFT.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            throw new IllegalStateException("Injected failure after a completed checkpoint");
        }
        return row;
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) {
        checkpointCompleted = true;
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
