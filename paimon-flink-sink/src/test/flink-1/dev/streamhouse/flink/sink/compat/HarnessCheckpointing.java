package dev.streamhouse.flink.sink.compat;

import org.apache.flink.streaming.util.AbstractStreamOperatorTestHarness;

/** Makes an operator test harness look like a job with or without checkpoints (Flink 1.x: the stream config). */
public final class HarnessCheckpointing {
    private HarnessCheckpointing() {}

    public static void set(AbstractStreamOperatorTestHarness<?> harness, boolean enabled) {
        harness.getStreamConfig().setCheckpointingEnabled(enabled);
    }
}
