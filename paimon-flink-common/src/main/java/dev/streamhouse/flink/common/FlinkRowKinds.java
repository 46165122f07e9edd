package dev.streamhouse.flink.common;

import dev.streamhouse.storage.data.RowKind;

/**
 * The one mapping between the table format's row kinds and Flink's, both directions: the sink
 * reads Flink's kind of each incoming row, the source sets it on each row it emits. Both models have
 * the same four kinds with the same byte values and short strings ({@code +I}, {@code -U},
 * {@code +U}, {@code -D}). Stateless and thread-safe.
 */
public final class FlinkRowKinds {
    private FlinkRowKinds() {}

    private static final org.apache.flink.types.RowKind[] TO_FLINK = new org.apache.flink.types.RowKind[RowKind.values().length];
    private static final RowKind[] TO_STORAGE = new RowKind[org.apache.flink.types.RowKind.values().length];

    static {
        for (RowKind kind : RowKind.values()) {
            org.apache.flink.types.RowKind flink = org.apache.flink.types.RowKind.fromByteValue(kind.toByteValue());
            if (!flink.shortString().equals(kind.shortString())) {
                throw new IllegalStateException("Row kind " + kind + " has byte value " + kind.toByteValue()
                        + ", which is Flink's " + flink);
            }
            TO_FLINK[kind.ordinal()] = flink;
            TO_STORAGE[flink.ordinal()] = kind;
        }
    }

    /** Flink's row kind for ours. */
    public static org.apache.flink.types.RowKind toFlink(RowKind kind) {
        return TO_FLINK[kind.ordinal()];
    }

    /** Our row kind for Flink's. */
    public static RowKind toStorage(org.apache.flink.types.RowKind kind) {
        RowKind ours = TO_STORAGE[kind.ordinal()];
        if (ours == null) {
            throw new IllegalArgumentException("Cannot store a row of Flink row kind " + kind
                    + ": the table format has no such kind");
        }
        return ours;
    }
}
