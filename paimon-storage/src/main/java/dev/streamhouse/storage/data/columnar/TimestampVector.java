package dev.streamhouse.storage.data.columnar;

import dev.streamhouse.storage.data.Timestamp;

/**
 * Timestamps as epoch milliseconds plus nanoseconds within the millisecond. The nanosecond part is
 * only stored when the column can have one ({@code withNanos}); otherwise it is zero.
 */
public final class TimestampVector extends HeapVector {
    private final boolean withNanos;
    private final long[] millis;
    private final int[] nanos;

    public TimestampVector(int capacity, boolean withNanos) {
        super(capacity);
        this.withNanos = withNanos;
        this.millis = new long[capacity];
        this.nanos = withNanos ? new int[capacity] : null;
    }


    public void set(int rowId, long epochMillis, int nanoOfMillisecond) {
        millis[rowId] = epochMillis;
        if (withNanos) {
            nanos[rowId] = nanoOfMillisecond;
        } else if (nanoOfMillisecond != 0) {
            throw new IllegalArgumentException("Cannot store " + nanoOfMillisecond
                    + " nanoseconds in a vector of millisecond timestamps");
        }
    }

    @Override
    public Timestamp getTimestamp(int rowId, int precision) {
        return withNanos
                ? Timestamp.fromEpochMillis(millis[rowId], nanos[rowId])
                : Timestamp.fromEpochMillis(millis[rowId]);
    }
}
