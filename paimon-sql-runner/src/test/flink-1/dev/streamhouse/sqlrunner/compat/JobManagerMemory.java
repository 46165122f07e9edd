package dev.streamhouse.sqlrunner.compat;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.JobManagerOptions;
import org.apache.flink.runtime.jobmanager.JobManagerProcessSpec;
import org.apache.flink.runtime.jobmanager.JobManagerProcessUtils;

/**
 * The JobManager's memory as jobmanager.sh computes it from a configuration (Flink 1.20: a legacy
 * heap size counts as {@code jobmanager.memory.heap.size}).
 */
public final class JobManagerMemory {
    private JobManagerMemory() {}

    public static JobManagerProcessSpec processSpec(Configuration conf) {
        return JobManagerProcessUtils.processSpecFromConfigWithNewOptionToInterpretLegacyHeap(
                conf, JobManagerOptions.JVM_HEAP_MEMORY);
    }
}
