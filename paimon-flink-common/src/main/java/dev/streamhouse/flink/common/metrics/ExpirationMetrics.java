package dev.streamhouse.flink.common.metrics;

import dev.streamhouse.storage.metrics.ExpirationStats;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The {@code expiration} metrics of a table in its committer: what the expiration after commits did
 * ({@link ExpirationStats}), reported from the committing thread or the background expiration thread.
 */
public final class ExpirationMetrics {
    private final AtomicLong snapshots = new AtomicLong();
    private final AtomicLong files = new AtomicLong();
    private final AtomicLong changelogs = new AtomicLong();
    private final AtomicLong consumers = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private volatile ExpirationStats last = new ExpirationStats(0, 0, 0, 0, 0, 0, false);

    public ExpirationMetrics(TableMetricGroup group) {
        group.gauge(TableMetric.LAST_EXPIRATION_TIME, () -> last.endMillis());
        group.gauge(TableMetric.LAST_EXPIRATION_DURATION, () -> last.durationMillis());
        group.counter(TableMetric.EXPIRED_SNAPSHOT_COUNT, snapshots::get);
        group.counter(TableMetric.EXPIRED_FILE_COUNT, files::get);
        group.counter(TableMetric.EXPIRED_CHANGELOG_COUNT, changelogs::get);
        group.counter(TableMetric.EXPIRED_CONSUMER_COUNT, consumers::get);
        group.counter(TableMetric.EXPIRATION_FAILURE_COUNT, failures::get);
    }

    public void report(ExpirationStats stats) {
        snapshots.addAndGet(stats.snapshots());
        files.addAndGet(stats.filesDeleted());
        changelogs.addAndGet(stats.changelogs());
        consumers.addAndGet(stats.consumers());
        if (stats.failed()) {
            failures.incrementAndGet();
        }
        last = stats;
    }
}
