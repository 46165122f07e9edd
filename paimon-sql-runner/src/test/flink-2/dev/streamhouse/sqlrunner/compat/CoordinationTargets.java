package dev.streamhouse.sqlrunner.compat;

import java.util.UUID;

/** How a coordination request names its operator (Flink 2.x: the operator's uid). */
public final class CoordinationTargets {
    private CoordinationTargets() {}

    public static String newOperator() {
        return "operator-" + UUID.randomUUID();
    }
}
