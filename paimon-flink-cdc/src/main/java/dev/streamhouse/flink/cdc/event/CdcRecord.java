package dev.streamhouse.flink.cdc.event;

import java.util.Arrays;
import java.util.Objects;

/**
 * One changed row of one table. {@link Op#INSERT} has only {@link #after()}, {@link Op#DELETE}
 * only {@link #before()}, {@link Op#UPDATE} both (full row images). Values are positional in
 * {@link #schema()}'s columns and typed as {@link MySqlType} documents; a NULL is null.
 * {@link #snapshot()} tells rows read by the initial snapshot from rows read from the binlog;
 * {@link #kafkaOrigin()} says where in Kafka a record read from Kafka was.
 */
public final class CdcRecord implements CdcEvent {
    private static final long serialVersionUID = 1L;

    /** What happened to the row. */
    public enum Op {
        INSERT,
        UPDATE,
        DELETE
    }

    private final CdcSchema schema;
    private final Op op;
    private final Object[] before;
    private final Object[] after;
    private final long sourceTimestampMillis;
    private final boolean snapshot;
    private final KafkaOrigin kafkaOrigin;

    public CdcRecord(CdcSchema schema, Op op, Object[] before, Object[] after, long sourceTimestampMillis,
            boolean snapshot) {
        this(schema, op, before, after, sourceTimestampMillis, snapshot, null);
    }

    public CdcRecord(CdcSchema schema, Op op, Object[] before, Object[] after, long sourceTimestampMillis,
            boolean snapshot, KafkaOrigin kafkaOrigin) {
        this.schema = Objects.requireNonNull(schema, "schema");
        this.op = Objects.requireNonNull(op, "op");
        if ((op == Op.INSERT && (after == null || before != null))
                || (op == Op.DELETE && (before == null || after != null))
                || (op == Op.UPDATE && (before == null || after == null))) {
            throw new IllegalArgumentException("A " + op + " of " + schema.table() + " has the wrong row images");
        }
        this.before = before;
        this.after = after;
        this.sourceTimestampMillis = sourceTimestampMillis;
        this.snapshot = snapshot;
        this.kafkaOrigin = kafkaOrigin;
    }

    /** This record as read from {@code origin} in Kafka. */
    public CdcRecord withKafkaOrigin(KafkaOrigin origin) {
        return new CdcRecord(schema, op, before, after, sourceTimestampMillis, snapshot, origin);
    }

    @Override
    public CdcTableId table() {
        return schema.table();
    }

    @Override
    public CdcSchema schema() {
        return schema;
    }

    public Op op() {
        return op;
    }

    /** The row before the change; null for an insert. */
    public Object[] before() {
        return before;
    }

    /** The row after the change; null for a delete. */
    public Object[] after() {
        return after;
    }

    /** When the change happened at the source (binlog event time; the read time for snapshot rows). */
    public long sourceTimestampMillis() {
        return sourceTimestampMillis;
    }

    public boolean snapshot() {
        return snapshot;
    }

    /** Where in Kafka the record was read; null for a record not read from Kafka. */
    public KafkaOrigin kafkaOrigin() {
        return kafkaOrigin;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CdcRecord other && op == other.op && schema.equals(other.schema)
                && Arrays.deepEquals(before, other.before) && Arrays.deepEquals(after, other.after)
                && sourceTimestampMillis == other.sourceTimestampMillis && snapshot == other.snapshot
                && Objects.equals(kafkaOrigin, other.kafkaOrigin);
    }

    @Override
    public int hashCode() {
        return Objects.hash(schema, op, Arrays.deepHashCode(before), Arrays.deepHashCode(after));
    }

    @Override
    public String toString() {
        return op + " " + schema.table() + (before == null ? "" : " before=" + Arrays.deepToString(before))
                + (after == null ? "" : " after=" + Arrays.deepToString(after));
    }
}
