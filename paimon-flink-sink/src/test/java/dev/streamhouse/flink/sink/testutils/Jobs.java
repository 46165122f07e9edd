package dev.streamhouse.flink.sink.testutils;

import dev.streamhouse.flink.common.metrics.MetricsForTests;
import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.CoreOptions;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.configuration.RestartStrategyOptions;
import org.apache.flink.configuration.StateBackendOptions;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;

import java.time.Duration;

/** The MiniCluster of the sink ITCases (restarts after injected failures) and job environments on it. */
public final class Jobs {
    private Jobs() {}

    /** 1 TaskManager with 4 slots; hashmap state; up to 10 restarts 100 ms apart; metrics to {@link MetricsForTests}. */
    public static MiniClusterExtension miniCluster() {
        Configuration c = new Configuration();
        c.set(StateBackendOptions.STATE_BACKEND, "hashmap");
        c.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        c.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 10);
        c.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(100));
        return new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
                .setNumberTaskManagers(1)
                .setNumberSlotsPerTaskManager(4)
                .setConfiguration(MetricsForTests.configure(c))
                .build());
    }

    public static StreamExecutionEnvironment batch(int parallelism) {
        Configuration c = new Configuration();
        c.set(ExecutionOptions.RUNTIME_MODE, RuntimeExecutionMode.BATCH);
        c.set(CoreOptions.DEFAULT_PARALLELISM, parallelism);
        return StreamExecutionEnvironment.getExecutionEnvironment(c);
    }

    /** A streaming job; {@code checkpointMillis} null for no checkpointing. */
    public static StreamExecutionEnvironment streaming(int parallelism, Long checkpointMillis) {
        return StreamExecutionEnvironment.getExecutionEnvironment(streamingConfig(parallelism, checkpointMillis));
    }

    public static Configuration streamingConfig(int parallelism, Long checkpointMillis) {
        Configuration c = new Configuration();
        c.set(ExecutionOptions.RUNTIME_MODE, RuntimeExecutionMode.STREAMING);
        c.set(CoreOptions.DEFAULT_PARALLELISM, parallelism);
        if (checkpointMillis != null) {
            c.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofMillis(checkpointMillis));
        }
        return c;
    }
}
