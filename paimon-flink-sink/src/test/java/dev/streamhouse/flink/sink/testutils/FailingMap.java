package dev.streamhouse.flink.sink.testutils;

import org.apache.flink.api.common.functions.RichMapFunction;
import org.apache.flink.api.common.state.CheckpointListener;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.table.data.RowData;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Passes rows through with the operator-side points of {@link FailurePlan} ({@code RECORD},
 * {@code SNAPSHOT_STATE}); both fire only after this instance saw a completed checkpoint, so every
 * failure restores from a newer checkpoint than the previous one and the job makes progress. Counts
 * restores in {@link #RESTORES} and tells {@link FailurePlan#restored()} (so use it in every job that
 * runs a plan, with parallelism 1).
 */
public final class FailingMap extends RichMapFunction<RowData, RowData>
        implements CheckpointListener, CheckpointedFunction {
    public static final AtomicInteger RESTORES = new AtomicInteger();

    private transient boolean checkpointCompleted;

    @Override
    public RowData map(RowData row) {
        if (checkpointCompleted) {
            FailurePlan.maybeFail(FailurePlan.Point.RECORD);
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
            FailurePlan.restored();
        }
    }

    @Override
    public void snapshotState(FunctionSnapshotContext context) {
        if (checkpointCompleted) {
            FailurePlan.maybeFail(FailurePlan.Point.SNAPSHOT_STATE);
        }
    }
}
