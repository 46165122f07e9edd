package dev.streamhouse.flink.source.split.v1;

import java.io.Serializable;

/** The Java-serialized form of storage's {@code SimpleStats} in split serializer version 1, frozen. */
final class SimpleStats implements Serializable {
    private static final long serialVersionUID = 1L;

    private final BinaryRow minValues;
    private final BinaryRow maxValues;
    private final Long[] nullCounts;

    private SimpleStats(BinaryRow minValues, BinaryRow maxValues, Long[] nullCounts) {
        this.minValues = minValues;
        this.maxValues = maxValues;
        this.nullCounts = nullCounts;
    }

    BinaryRow minValues() {
        return minValues;
    }

    BinaryRow maxValues() {
        return maxValues;
    }

    Long[] nullCounts() {
        return nullCounts;
    }
}
