package dev.streamhouse.flink.cdc.action;

import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

/** Submits a sync action's job to the test's MiniCluster, as {@link CdcActionMain} would, and returns it running. */
public final class CdcActionsTesting {
    private CdcActionsTesting() {}

    public static JobClient submit(String action, String... args) throws Exception {
        CdcActions.Parsed parsed = CdcActions.parse(CdcActions.normalize(action), args, 0);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(parsed.configuration());
        parsed.job().addTo(env);
        return env.executeAsync(parsed.job().name());
    }
}
