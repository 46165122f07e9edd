package dev.streamhouse.flink.sink.compat;

import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;

/**
 * Whether the job an operator runs in takes checkpoints (Flink 2.x: the job configuration's
 * checkpoint interval, as Flink's own tasks decide it). The committers ask it at end of input:
 * without checkpoints they commit what is left there, with checkpoints the final checkpoint does.
 */
public final class CheckpointingProbe {
    private CheckpointingProbe() {}

    public static boolean isEnabled(AbstractStreamOperator<?> operator) {
        return CheckpointingOptions.isCheckpointingEnabled(operator.getContainingTask().getJobConfiguration());
    }
}
