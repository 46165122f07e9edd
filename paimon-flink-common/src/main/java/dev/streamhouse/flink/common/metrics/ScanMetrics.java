package dev.streamhouse.flink.common.metrics;

import dev.streamhouse.storage.metrics.ScanListener;
import dev.streamhouse.storage.metrics.ScanStats;
import org.apache.flink.metrics.Histogram;

import java.util.function.Supplier;

/**
 * The {@code scan} metrics of a table read in its source enumerator. A planning ({@link #measure})
 * reports the manifests its scans read and the files they skipped and selected, through this
 * {@link ScanListener}, set on the read's {@code ReadBuilder}; a planning that read no manifest (no
 * next snapshot yet) changes nothing. Planning runs in one thread; reporters read from others.
 */
public final class ScanMetrics implements ScanListener {
    private static final ScanStats NONE = new ScanStats(0, 0, 0, 0);

    private final Histogram durations;
    private volatile ScanStats last = NONE;
    private volatile long lastSnapshotId = -1;
    private volatile long snapshotsBehind;
    private volatile long unreadAgeMillis;
    /** What the scans of the running planning read, or null before the first; planning thread only. */
    private ScanStats current;

    public ScanMetrics(TableMetricGroup group) {
        group.gauge(TableMetric.LAST_SCAN_DURATION, () -> last.durationMillis());
        durations = group.histogram(TableMetric.SCAN_DURATION);
        group.gauge(TableMetric.LAST_SCANNED_MANIFESTS, () -> last.manifestsScanned());
        group.gauge(TableMetric.LAST_SCAN_SKIPPED_TABLE_FILES, () -> last.skippedFiles());
        group.gauge(TableMetric.LAST_SCAN_RESULTED_TABLE_FILES, () -> last.resultedFiles());
        group.gauge(TableMetric.LAST_SCANNED_SNAPSHOT_ID, () -> lastSnapshotId);
    }

    /** Also registers the freshness gauges of a streaming read ({@link #reportFreshness}). */
    public ScanMetrics withFreshness(TableMetricGroup group) {
        group.gauge(TableMetric.SNAPSHOTS_BEHIND_LATEST, () -> snapshotsBehind);
        group.gauge(TableMetric.UNREAD_SNAPSHOT_AGE, () -> unreadAgeMillis);
        return this;
    }

    @Override
    public void onScan(ScanStats stats) {
        current = current == null ? stats : current.plus(stats);
    }

    /**
     * Runs one planning and reports it, unless it read no manifest.
     *
     * @param snapshotOf the snapshot id the planning read, from its result (null if none)
     */
    public <T> T measure(Supplier<T> planning, java.util.function.Function<T, Long> snapshotOf) {
        current = null;
        long started = System.nanoTime();
        T result = planning.get();
        ScanStats read = current;
        current = null;
        if (read != null) {
            long millis = (System.nanoTime() - started) / 1_000_000;
            last = new ScanStats(millis, read.manifestsScanned(), read.skippedFiles(), read.resultedFiles());
            durations.update(millis);
            Long snapshot = snapshotOf.apply(result);
            if (snapshot != null) {
                lastSnapshotId = snapshot;
            }
        }
        return result;
    }

    /**
     * A streaming read has {@code behind} committed snapshots left to plan, the oldest of them committed
     * {@code ageMillis} ago (both 0 when it is caught up).
     */
    public void reportFreshness(long behind, long ageMillis) {
        snapshotsBehind = behind;
        unreadAgeMillis = ageMillis;
    }
}
