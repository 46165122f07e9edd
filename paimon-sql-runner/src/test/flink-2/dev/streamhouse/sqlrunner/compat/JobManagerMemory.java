package dev.streamhouse.sqlrunner.compat;

import org.apache.flink.configuration.Configuration;
import org.apache.flink.runtime.jobmanager.JobManagerProcessSpec;
import org.apache.flink.runtime.jobmanager.JobManagerProcessUtils;

/** The JobManager's memory as jobmanager.sh computes it from a configuration (Flink 2.x: no legacy heap option). */
public final class JobManagerMemory {
    private JobManagerMemory() {}

    public static JobManagerProcessSpec processSpec(Configuration conf) {
        return JobManagerProcessUtils.processSpecFromConfig(conf);
    }
}
