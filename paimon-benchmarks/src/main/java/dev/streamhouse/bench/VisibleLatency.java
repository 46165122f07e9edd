package dev.streamhouse.bench;

import org.apache.flink.table.functions.ScalarFunction;

import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * SQL function {@code visible_latency(ts)}: called by the streaming reader job on every row it
 * reads, it records now minus the row's generation time (both in the JVM's zone, which is the
 * session zone LOCALTIMESTAMP uses). Measured inside the reader job, so the latency excludes
 * Flink's collect-to-client path. The MiniCluster runs in this JVM, so the records are static.
 */
public final class VisibleLatency extends ScalarFunction {
    private static long[] latencyMillis = new long[0];
    private static final AtomicInteger SEEN = new AtomicInteger();
    private static final ZoneId ZONE = ZoneId.systemDefault();
    private static final AtomicLong FIRST_MILLIS = new AtomicLong(Long.MAX_VALUE);
    private static final AtomicLong LAST_MILLIS = new AtomicLong(Long.MIN_VALUE);

    static void reset(int capacity) {
        latencyMillis = new long[capacity];
        SEEN.set(0);
        FIRST_MILLIS.set(Long.MAX_VALUE);
        LAST_MILLIS.set(Long.MIN_VALUE);
    }

    /** Generation time of the last row seen minus that of the first. */
    static long generationSpanMillis() {
        return Math.max(0, LAST_MILLIS.get() - FIRST_MILLIS.get());
    }

    static int seen() {
        return Math.min(SEEN.get(), latencyMillis.length);
    }

    static long[] recorded() {
        return Arrays.copyOf(latencyMillis, seen());
    }

    public long eval(LocalDateTime ts) {
        long generated = ts.atZone(ZONE).toInstant().toEpochMilli();
        FIRST_MILLIS.accumulateAndGet(generated, Math::min);
        LAST_MILLIS.accumulateAndGet(generated, Math::max);
        long latency = System.currentTimeMillis() - generated;
        int i = SEEN.getAndIncrement();
        if (i < latencyMillis.length) {
            latencyMillis[i] = latency;
        }
        return latency;
    }

    @Override
    public boolean isDeterministic() {
        return false;
    }
}
