package dev.streamhouse.storage.metrics;

import java.util.ArrayDeque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Live figures of one table write (one writer task of an engine): its write buffer, the shape of the
 * LSM trees of the buckets it has open, and its compactions; an engine turns them into metrics. The
 * write records into it from its own threads (the writer thread, the compaction thread); any thread may
 * read. Pass one to a write with {@code WriteContext.withStats}; a write continuing another keeps
 * recording into the same one.
 *
 * <p>Compaction figures cover the last {@link #WINDOW} compactions ({@link #avgCompactionMillis},
 * sizes) or the last {@link #BUSY_WINDOW_MILLIS} ms ({@link #compactionThreadBusyPercent}).
 */
public final class WriterStats {
    /** Compactions the averages and maxima cover. */
    public static final int WINDOW = 100;
    /** The span over which compaction thread busyness is measured. */
    public static final long BUSY_WINDOW_MILLIS = 60_000;

    /** The LSM tree of one open bucket as of its last change. */
    public record BucketShape(int level0Files, long level0Bytes, int sortedRuns, long totalFileBytes) {}

    /** One finished compaction. */
    private record Compaction(long endMillis, long millis, long inputBytes, long outputBytes) {}

    private final Map<Object, BucketShape> buckets = new ConcurrentHashMap<>();
    private final AtomicLong preemptions = new AtomicLong();
    private final AtomicLong started = new AtomicLong();
    private final AtomicLong completed = new AtomicLong();
    private final AtomicLong abandoned = new AtomicLong();
    private final AtomicLong stopWaitNanos = new AtomicLong();
    private final ArrayDeque<Compaction> recent = new ArrayDeque<>();
    private volatile LongSupplier usedBufferBytes = () -> 0;
    private volatile java.util.function.IntSupplier writerCount = buckets::size;
    private volatile long totalBufferBytes;
    private volatile int compactionTrigger = Integer.MAX_VALUE;
    private volatile int stopTrigger = Integer.MAX_VALUE;

    // ---- recorded by the write

    /** The write's buffer memory: its size and how to read how much of it is in use (thread-safe). */
    public void bufferMemory(long totalBytes, LongSupplier usedBytes) {
        this.totalBufferBytes = totalBytes;
        this.usedBufferBytes = usedBytes;
    }

    /** The buffer of one bucket was flushed to make room for another's. */
    public void bufferPreempted() {
        preemptions.incrementAndGet();
    }

    /** {@code num-sorted-run.compaction-trigger} and {@code num-sorted-run.stop-trigger} of the table. */
    public void sortedRunTriggers(int compactionTrigger, int stopTrigger) {
        this.compactionTrigger = compactionTrigger;
        this.stopTrigger = stopTrigger;
    }

    /** The LSM tree of bucket {@code key} (a partition and bucket) is now {@code shape}. */
    public void bucketChanged(Object key, BucketShape shape) {
        buckets.put(key, shape);
    }

    /**
     * Bucket {@code key}, last reported as {@code lastShape}, was closed by the write; a write continuing
     * the bucket may have reported it since, and then keeps it.
     */
    public void bucketClosed(Object key, BucketShape lastShape) {
        buckets.remove(key, lastShape);
    }

    public void compactionStarted() {
        started.incrementAndGet();
    }

    /** A compaction ended normally after {@code millis}, rewriting {@code inputBytes} into {@code outputBytes}. */
    public void compactionCompleted(long millis, long inputBytes, long outputBytes) {
        completed.incrementAndGet();
        synchronized (recent) {
            recent.addLast(new Compaction(System.currentTimeMillis(), millis, inputBytes, outputBytes));
            while (recent.size() > WINDOW) {
                recent.removeFirst();
            }
        }
    }

    /** A compaction failed or was cancelled. */
    public void compactionAbandoned() {
        abandoned.incrementAndGet();
    }

    /** The writer waited {@code nanos} for compaction because a bucket reached the stop trigger. */
    public void waitedForCompaction(long nanos) {
        stopWaitNanos.addAndGet(nanos);
    }

    // ---- read by the engine

    /** How to count the write's open writers, when they are not its LSM buckets (append tables). */
    public void writerCount(java.util.function.IntSupplier count) {
        this.writerCount = count;
    }

    /** Writers the write has open: one per bucket being written. */
    public int openWriters() {
        return writerCount.getAsInt();
    }

    public long bufferPreemptions() {
        return preemptions.get();
    }

    public long usedBufferBytes() {
        return usedBufferBytes.getAsLong();
    }

    public long totalBufferBytes() {
        return totalBufferBytes;
    }

    public int maxLevel0Files() {
        return (int) max(BucketShape::level0Files);
    }

    public double avgLevel0Files() {
        return avg(BucketShape::level0Files);
    }

    /** Bytes of level-0 files of the open buckets: data waiting to be compacted. */
    public long level0Bytes() {
        long sum = 0;
        for (BucketShape s : buckets.values()) {
            sum += s.level0Bytes();
        }
        return sum;
    }

    public int maxSortedRuns() {
        return (int) max(BucketShape::sortedRuns);
    }

    /** Open buckets with more sorted runs than the compaction trigger. */
    public int bucketsAboveCompactionTrigger() {
        return count(compactionTrigger);
    }

    /** Open buckets with more sorted runs than the stop trigger (their writer waits for compaction). */
    public int bucketsAboveStopTrigger() {
        return count(stopTrigger);
    }

    public long maxTotalFileBytes() {
        return max(BucketShape::totalFileBytes);
    }

    public double avgTotalFileBytes() {
        return avg(BucketShape::totalFileBytes);
    }

    public long compactionsStarted() {
        return started.get();
    }

    public long compactionsCompleted() {
        return completed.get();
    }

    /** Compactions started and not ended yet (running or waiting for the compaction thread). */
    public long compactionsQueued() {
        return Math.max(0, started.get() - completed.get() - abandoned.get());
    }

    public double avgCompactionMillis() {
        return recentAvg(Compaction::millis);
    }

    public long maxCompactionInputBytes() {
        return recentMax(Compaction::inputBytes);
    }

    public double avgCompactionInputBytes() {
        return recentAvg(Compaction::inputBytes);
    }

    public long maxCompactionOutputBytes() {
        return recentMax(Compaction::outputBytes);
    }

    public double avgCompactionOutputBytes() {
        return recentAvg(Compaction::outputBytes);
    }

    /** Percentage of the last {@link #BUSY_WINDOW_MILLIS} ms that compactions ran (finished ones). */
    public double compactionThreadBusyPercent() {
        long now = System.currentTimeMillis();
        long from = now - BUSY_WINDOW_MILLIS;
        long busy = 0;
        synchronized (recent) {
            for (Compaction c : recent) {
                long start = Math.max(from, c.endMillis() - c.millis());
                if (c.endMillis() > start) {
                    busy += c.endMillis() - start;
                }
            }
        }
        return Math.min(100.0, 100.0 * busy / BUSY_WINDOW_MILLIS);
    }

    /** Milliseconds writers waited for compaction because a bucket reached the stop trigger, in total. */
    public long stopTriggerWaitMillis() {
        return stopWaitNanos.get() / 1_000_000;
    }

    private long max(java.util.function.ToLongFunction<BucketShape> f) {
        long max = 0;
        for (BucketShape s : buckets.values()) {
            max = Math.max(max, f.applyAsLong(s));
        }
        return max;
    }

    private double avg(java.util.function.ToLongFunction<BucketShape> f) {
        long sum = 0;
        int n = 0;
        for (BucketShape s : buckets.values()) {
            sum += f.applyAsLong(s);
            n++;
        }
        return n == 0 ? 0 : (double) sum / n;
    }

    private int count(int runsAbove) {
        int n = 0;
        for (BucketShape s : buckets.values()) {
            if (s.sortedRuns() > runsAbove) {
                n++;
            }
        }
        return n;
    }

    private long recentMax(java.util.function.ToLongFunction<Compaction> f) {
        long max = 0;
        synchronized (recent) {
            for (Compaction c : recent) {
                max = Math.max(max, f.applyAsLong(c));
            }
        }
        return max;
    }

    private double recentAvg(java.util.function.ToLongFunction<Compaction> f) {
        synchronized (recent) {
            if (recent.isEmpty()) {
                return 0;
            }
            long sum = 0;
            for (Compaction c : recent) {
                sum += f.applyAsLong(c);
            }
            return (double) sum / recent.size();
        }
    }
}
