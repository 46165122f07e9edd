package dev.streamhouse.flink.sink.compat;

import java.time.Duration;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.streaming.util.AbstractStreamOperatorTestHarness;

/**
 * Makes an operator test harness look like a job with or without checkpoints (Flink 2.x: a
 * checkpoint interval in the job configuration, or none).
 */
public final class HarnessCheckpointing {
    private HarnessCheckpointing() {}

    public static void set(AbstractStreamOperatorTestHarness<?> harness, boolean enabled) {
        if (enabled) {
            harness.getEnvironment().getJobConfiguration()
                    .set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofSeconds(1));
        } else {
            harness.getEnvironment().getJobConfiguration().removeConfig(CheckpointingOptions.CHECKPOINTING_INTERVAL);
        }
    }
}
