package dev.streamhouse.flink.sink.compat;

import org.apache.flink.streaming.api.operators.AbstractStreamOperator;

/**
 * Whether the job an operator runs in takes checkpoints (Flink 1.x: the operator's stream config
 * carries the flag). The committers ask it at end of input: without checkpoints they commit what is
 * left there, with checkpoints the final checkpoint does.
 */
public final class CheckpointingProbe {
    private CheckpointingProbe() {}

    public static boolean isEnabled(AbstractStreamOperator<?> operator) {
        return operator.getOperatorConfig().isCheckpointingEnabled();
    }
}
