package dev.streamhouse.flink.source.reader;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts the records one source reader emitted against the pushed-down limit ({@code LIMIT n}). The
 * limit is per reader, so with p readers up to p·n rows leave the source; Flink's own limit operator
 * after the source cuts them to n. A restored reader counts from zero again.
 *
 * <p>The task thread acquires permits while emitting; the fetcher thread only asks whether the limit
 * was reached, to stop reading early. Thread-safe.
 */
public final class RecordLimiter {
    private final long limit;
    private final AtomicLong emitted = new AtomicLong();

    private RecordLimiter(long limit) {
        if (limit < 0) {
            throw new IllegalArgumentException("Cannot limit a read to " + limit + " records: the limit is negative");
        }
        this.limit = limit;
    }

    /** A limiter that lets {@code limit} records through. */
    public static RecordLimiter of(long limit) {
        return new RecordLimiter(limit);
    }

    /** A limiter that never stops a read. */
    public static RecordLimiter unlimited() {
        return new RecordLimiter(Long.MAX_VALUE);
    }

    /**
     * Takes a permit to emit one record; false once the limit was reached (drop the record). An
     * unlimited limiter counts nothing: no atomic write per row, which the fetcher thread's
     * {@link #reached} reads would otherwise keep pulling between cores.
     */
    public boolean tryAcquire() {
        if (limit == Long.MAX_VALUE) {
            return true;
        }
        if (emitted.get() >= limit) {
            return false;
        }
        emitted.incrementAndGet();
        return true;
    }

    /** Whether no further record may be emitted. */
    public boolean reached() {
        return limit != Long.MAX_VALUE && emitted.get() >= limit;
    }
}
