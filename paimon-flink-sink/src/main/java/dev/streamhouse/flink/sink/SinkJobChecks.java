package dev.streamhouse.flink.sink;

import org.apache.flink.api.common.RuntimeExecutionMode;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.ExecutionOptions;
import org.apache.flink.configuration.ReadableConfig;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.streaming.api.environment.CheckpointConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a job must look like for a sink to commit exactly once: in streaming, aligned EXACTLY_ONCE
 * checkpoints and checkpoints after tasks finish (a bounded job's last files are committed by its
 * final checkpoint); an overwrite only in batch. Without checkpointing a streaming sink commits once,
 * at the end of its input (a warning).
 */
public final class SinkJobChecks {
    private static final Logger LOG = LoggerFactory.getLogger(SinkJobChecks.class);

    private SinkJobChecks() {}

    /**
     * @param what what the sink writes, for messages, e.g. {@code table db.t}
     * @throws IllegalStateException naming the setting to change when the job cannot commit exactly once
     */
    public static void check(String what, boolean replacesData, ReadableConfig config, CheckpointConfig checkpoints) {
        boolean batch = config.get(ExecutionOptions.RUNTIME_MODE) == RuntimeExecutionMode.BATCH;
        if (replacesData && !batch) {
            throw new IllegalStateException("Cannot overwrite " + what + " in a streaming job:"
                    + " an overwrite commits once, at the end of a bounded input; run it with"
                    + " 'execution.runtime-mode' = 'batch'");
        }
        if (batch) {
            return;
        }
        if (!checkpoints.isCheckpointingEnabled()) {
            LOG.warn("Sink to {} runs in a streaming job without checkpointing: it commits only when its "
                    + "input ends; enable checkpointing to commit continuously", what);
            return;
        }
        if (checkpoints.isUnalignedCheckpointsEnabled() || checkpoints.isForceUnalignedCheckpoints()) {
            throw new IllegalStateException("Cannot write " + what + " with unaligned "
                    + "checkpoints: a checkpoint must hold exactly the files written before its barrier; set "
                    + "'" + CheckpointingOptions.ENABLE_UNALIGNED.key() + "' = 'false'");
        }
        if (checkpoints.getCheckpointingConsistencyMode() != CheckpointingMode.EXACTLY_ONCE) {
            throw new IllegalStateException("Cannot write " + what + " with "
                    + checkpoints.getCheckpointingConsistencyMode() + " checkpoints: the sink commits exactly once"
                    + " and needs aligned EXACTLY_ONCE checkpoints; set '"
                    + CheckpointingOptions.CHECKPOINTING_CONSISTENCY_MODE.key() + "' = 'EXACTLY_ONCE'");
        }
        if (!config.get(CheckpointingOptions.ENABLE_CHECKPOINTS_AFTER_TASKS_FINISH)) {
            throw new IllegalStateException("Cannot write " + what + " with '"
                    + CheckpointingOptions.ENABLE_CHECKPOINTS_AFTER_TASKS_FINISH.key() + "' = 'false': the last"
                    + " files of a bounded streaming job are committed by its final checkpoint; enable it");
        }
    }
}
