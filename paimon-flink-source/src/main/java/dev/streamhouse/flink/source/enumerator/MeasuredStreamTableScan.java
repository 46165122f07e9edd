package dev.streamhouse.flink.source.enumerator;

import dev.streamhouse.flink.common.metrics.ScanMetrics;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.table.Table;
import dev.streamhouse.storage.table.source.StreamTableScan;
import dev.streamhouse.storage.table.source.TableScan;

import java.io.IOException;
import java.util.Optional;

/**
 * A streaming read's scan that reports each planning to the table's {@code scan} metrics, and how far
 * behind the latest snapshot the read is: a planning that found no next snapshot means the read is
 * caught up; {@link #probeFreshness()}, run periodically in the same thread as the plannings (also while
 * back pressure holds planning back), compares the next snapshot to plan with the latest (one or two
 * small file reads). Used from one thread at a time, as the scan.
 */
public final class MeasuredStreamTableScan implements StreamTableScan {
    private final StreamTableScan scan;
    private final Table table;
    private final ScanMetrics metrics;

    public MeasuredStreamTableScan(StreamTableScan scan, Table table, ScanMetrics metrics) {
        this.scan = scan;
        this.table = table;
        this.metrics = metrics;
    }

    @Override
    public TableScan.Plan plan() {
        TableScan.Plan plan = metrics.measure(scan::plan, TableScan.Plan::snapshotId);
        if (plan.snapshotId() == null) {
            metrics.reportFreshness(0, 0);
        }
        return plan;
    }

    /**
     * Reports how many committed snapshots the read has not planned yet and since when the oldest of
     * them waits.
     *
     * @throws java.io.UncheckedIOException if the snapshots cannot be read
     */
    public void probeFreshness() {
        long now = System.currentTimeMillis();
        Long next = scan.checkpoint();
        Optional<Snapshot> latest = table.latestSnapshot();
        if (next == null || latest.isEmpty() || latest.get().id() < next) {
            metrics.reportFreshness(0, 0);
            return;
        }
        long behind = latest.get().id() - next + 1;
        long age = table.snapshot(next).map(s -> Math.max(0, now - s.timeMillis())).orElse(0L);
        metrics.reportFreshness(behind, age);
    }

    @Override
    public Long checkpoint() {
        return scan.checkpoint();
    }

    @Override
    public void restore(Long nextSnapshotId) {
        scan.restore(nextSnapshotId);
    }

    @Override
    public Optional<String> consumerId() {
        return scan.consumerId();
    }

    @Override
    public void recordConsumerProgress(long nextSnapshotId) throws IOException {
        scan.recordConsumerProgress(nextSnapshotId);
    }
}
