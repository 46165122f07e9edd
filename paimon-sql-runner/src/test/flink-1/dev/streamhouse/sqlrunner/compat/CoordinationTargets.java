package dev.streamhouse.sqlrunner.compat;

import org.apache.flink.runtime.jobgraph.OperatorID;

/** How a coordination request names its operator (Flink 1.20: an {@link OperatorID}). */
public final class CoordinationTargets {
    private CoordinationTargets() {}

    public static OperatorID newOperator() {
        return new OperatorID();
    }
}
