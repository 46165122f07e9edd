package dev.streamhouse.flink.common.metrics;

import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongSupplier;

/**
 * The {@code lookup} metrics of a table in one lookup-join task. Lookups may report from several threads
 * (async lookups); reporters read from others.
 */
public final class LookupMetrics {
    private final LongAdder lookups = new LongAdder();
    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();
    private final LongAdder rows = new LongAdder();
    private final LongAdder recentHits = new LongAdder();
    private final LongAdder refreshes = new LongAdder();
    private volatile long lastRefreshMillis;
    private volatile long loadMillis;
    private volatile long snapshotId;
    private volatile LongSupplier diskBytes = () -> 0;

    public LookupMetrics(TableMetricGroup group) {
        group.counter(TableMetric.LOOKUP_COUNT, lookups::sum);
        group.counter(TableMetric.LOOKUP_HIT_COUNT, hits::sum);
        group.counter(TableMetric.LOOKUP_MISS_COUNT, misses::sum);
        group.counter(TableMetric.LOOKUP_ROW_COUNT, rows::sum);
        group.counter(TableMetric.RECENT_KEYS_HIT_COUNT, recentHits::sum);
        group.counter(TableMetric.LOOKUP_REFRESH_COUNT, refreshes::sum);
        group.gauge(TableMetric.LAST_LOOKUP_REFRESH_DURATION, () -> lastRefreshMillis);
        group.gauge(TableMetric.LOOKUP_LOAD_DURATION, () -> loadMillis);
        group.gauge(TableMetric.LOOKUP_SNAPSHOT_ID, () -> snapshotId);
        group.gauge(TableMetric.LOOKUP_DISK_SIZE, () -> diskBytes.getAsLong());
    }

    /**
     * The local copy of snapshot {@code snapshotId} was loaded in {@code millis}; the disk-size gauge reads
     * {@code diskBytes} (thread-safe; local I/O at most).
     */
    public void loaded(long millis, long snapshotId, LongSupplier diskBytes) {
        this.loadMillis = millis;
        this.snapshotId = snapshotId;
        this.diskBytes = diskBytes;
    }

    /** The local copy was closed: it uses no disk any more. */
    public void closed() {
        this.diskBytes = () -> 0;
    }

    /** A lookup returned {@code rowCount} rows, from the recent keys' cache or not. */
    public void lookedUp(int rowCount, boolean fromRecentKeys) {
        lookups.increment();
        (rowCount == 0 ? misses : hits).increment();
        rows.add(rowCount);
        if (fromRecentKeys) {
            recentHits.increment();
        }
    }

    /** A refresh took {@code millis}; the copy now holds snapshot {@code snapshotId}. */
    public void refreshed(long millis, long snapshotId) {
        refreshes.increment();
        lastRefreshMillis = millis;
        this.snapshotId = snapshotId;
    }
}
