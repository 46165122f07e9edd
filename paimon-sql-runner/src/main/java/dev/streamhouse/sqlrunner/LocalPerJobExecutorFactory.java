package dev.streamhouse.sqlrunner;

import org.apache.flink.client.deployment.executors.LocalExecutor;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.DeploymentOptions;
import org.apache.flink.core.execution.PipelineExecutor;
import org.apache.flink.core.execution.PipelineExecutorFactory;

/**
 * The executor of {@code execution.target: streamhouse-local} (conf/local/config.yaml): jobs run
 * exactly as with Flink's {@code local} target, because it is Flink's {@link LocalExecutor} doing the
 * work (each job on its own in-process MiniCluster, sized for that job and shut down when it ends).
 * Only the {@link org.apache.flink.core.execution.JobClient} it hands out differs: see
 * {@link EndedJobTolerantJobClient}. Without that, every INSERT that fails at run time reports
 * "MiniCluster is not yet running or has already been shut down" instead of its own error.
 *
 * <p>A target name of our own, because Flink refuses to choose between two executor factories that
 * are both compatible with one target.
 */
public final class LocalPerJobExecutorFactory implements PipelineExecutorFactory {

    /** The value of {@code execution.target} that selects this executor. */
    public static final String NAME = "streamhouse-local";

    @Override
    public String getName() {
        return NAME;
    }

    @Override
    public boolean isCompatibleWith(Configuration configuration) {
        return NAME.equalsIgnoreCase(configuration.get(DeploymentOptions.TARGET));
    }

    @Override
    public PipelineExecutor getExecutor(Configuration configuration) {
        PipelineExecutor local = LocalExecutor.create(configuration);
        return (pipeline, jobConfiguration, userClassLoader) ->
                local.execute(pipeline, jobConfiguration, userClassLoader)
                        .thenApply(EndedJobTolerantJobClient::new);
    }
}
