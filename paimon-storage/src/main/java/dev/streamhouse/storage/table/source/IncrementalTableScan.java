package dev.streamhouse.storage.table.source;

import dev.streamhouse.storage.snapshot.SnapshotManager;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The batch read of {@code incremental-between = 'start,end'}: the changes of snapshots
 * {@code start+1 .. end}, as the delta splits a streaming read would get for them (same skipping of
 * compactions and overwrites, same changelog files), in snapshot order. The read drops retractions, so
 * rows are what those snapshots added: for a primary-key table every added version (not merged: a key
 * changed twice in the range appears twice), for an append table every added row.
 *
 * <p>Unlike Apache Paimon, which merges the versions of a key within the range, versions are not
 * merged and deletes do not remove rows added earlier in the range.
 */
final class IncrementalTableScan implements TableScan {
    private final SnapshotManager snapshots;
    private final SnapshotChangePlanner changes;
    private final long startExclusive;
    private final long endInclusive;
    private final String tableName;

    IncrementalTableScan(SnapshotManager snapshots, SnapshotChangePlanner changes, long startExclusive,
            long endInclusive, String tableName) {
        this.snapshots = snapshots;
        this.changes = changes;
        this.startExclusive = startExclusive;
        this.endInclusive = endInclusive;
        this.tableName = tableName;
    }

    /**
     * @throws IllegalArgumentException if a snapshot of the range does not exist (expired or not yet
     *     committed)
     */
    @Override
    public Plan plan() {
        List<DataSplit> splits = new ArrayList<>();
        try {
            for (long id = startExclusive + 1; id <= endInclusive; id++) {
                if (!snapshots.snapshotExists(id)) {
                    throw new IllegalArgumentException("Cannot read the changes between snapshots " + startExclusive
                            + " and " + endInclusive + " of table " + tableName + ": snapshot " + id
                            + " does not exist (earliest is " + snapshots.earliestSnapshotId() + ", latest is "
                            + snapshots.latestSnapshotId() + "); fix option 'incremental-between'");
                }
                splits.addAll(changes.plan(snapshots.snapshot(id)));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot plan the changes between snapshots " + startExclusive + " and "
                    + endInclusive + " of table " + tableName + ": " + e.getMessage(), e);
        }
        return new Plan(endInclusive, splits);
    }
}
