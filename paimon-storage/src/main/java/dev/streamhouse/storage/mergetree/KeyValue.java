package dev.streamhouse.storage.mergetree;

import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.RowKind;

/**
 * One version of a primary key: the key (trimmed primary key, docs/format.md §6.3), its sequence number,
 * the change kind and the full value row (all table columns, docs/format.md §8.2). Readers may reuse
 * instances with {@link #replace}; copy what must be kept past the next record.
 */
public final class KeyValue {
    /** Level of a record not read from a file (e.g. from the write buffer). */
    public static final int UNKNOWN_LEVEL = -1;

    private InternalRow key;
    private long sequenceNumber;
    private RowKind valueKind;
    private InternalRow value;
    private int level = UNKNOWN_LEVEL;

    public KeyValue replace(InternalRow key, long sequenceNumber, RowKind valueKind, InternalRow value) {
        this.key = key;
        this.sequenceNumber = sequenceNumber;
        this.valueKind = valueKind;
        this.value = value;
        this.level = UNKNOWN_LEVEL;
        return this;
    }

    public KeyValue setLevel(int level) {
        this.level = level;
        return this;
    }

    public InternalRow key() {
        return key;
    }

    public long sequenceNumber() {
        return sequenceNumber;
    }

    public RowKind valueKind() {
        return valueKind;
    }

    /** Whether this version removes the key (-U or -D). */
    public boolean isRetract() {
        return valueKind.isRetract();
    }

    public InternalRow value() {
        return value;
    }

    /** The level of the file this record was read from, or {@link #UNKNOWN_LEVEL}. */
    public int level() {
        return level;
    }

    @Override
    public String toString() {
        return "KeyValue{key=" + key + ", seq=" + sequenceNumber + ", kind=" + valueKind.shortString()
                + ", value=" + value + ", level=" + level + "}";
    }
}
