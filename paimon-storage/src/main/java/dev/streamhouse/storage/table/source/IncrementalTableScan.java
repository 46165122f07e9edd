package dev.streamhouse.storage.table.source;

import dev.streamhouse.storage.snapshot.ChangelogManager;
import dev.streamhouse.storage.snapshot.ExpiredSnapshotException;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.snapshot.SnapshotManager;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The batch read of {@code incremental-between = 'start,end'}: the changes snapshots
 * {@code start+1 .. end} made, as Apache Paimon 1.3 reads them.
 *
 * <p>Which files ({@code incremental-between-scan-mode}): {@code delta} reads the new data files of
 * APPEND snapshots; {@code changelog} reads the changelog files of APPEND and COMPACT snapshots (the
 * latter carry the changelog of {@code lookup}/{@code full-compaction} producers); {@code auto} (the
 * default) is {@code delta} for append tables and {@code changelog-producer = none}, else
 * {@code changelog}. OVERWRITE snapshots are always skipped, COMPACT snapshots are skipped by
 * {@code delta}. Append tables always read {@code delta}.
 *
 * <p>How they are read: as the delta splits a streaming read gets ({@link DataSplit#delta()}), one per
 * (partition, bucket) and snapshot, in snapshot order. Rows are not merged and keep their row kinds:
 * a key changed twice in the range appears twice, deletes appear as {@code -D} rows and, with input
 * changelog, updates as {@code -U}/{@code +U} pairs. This is what Paimon 1.3.1 returns (verified by
 * {@code StreamReadInteropTest}); older Paimon documentation says deletes are dropped, which 1.3 no
 * longer does. Rows of one key are in commit order here (Paimon does not promise an order).
 *
 * <p>A snapshot of the range that expired is read from its long-lived changelog
 * ({@code changelog/changelog-<id>}, kept by the {@code changelog.*} retention) while that is
 * retained. An empty table plans nothing. A range outside the retained snapshots and changelogs fails with an
 * {@link IllegalArgumentException} naming the option.
 */
final class IncrementalTableScan implements TableScan {
    private final SnapshotManager snapshots;
    private final ChangelogManager changelogs;
    private final SnapshotChangePlanner changes;
    private final long startExclusive;
    private final long endInclusive;
    private final String tableName;

    /** @param changes a planner of the files {@code incremental-between-scan-mode} selects, skipping OVERWRITEs */
    IncrementalTableScan(SnapshotManager snapshots, ChangelogManager changelogs, SnapshotChangePlanner changes, long startExclusive,
            long endInclusive, String tableName) {
        this.snapshots = snapshots;
        this.changelogs = changelogs;
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
            Long earliest = snapshots.earliestSnapshotId();
            Long latest = snapshots.latestSnapshotId();
            if (earliest == null || latest == null) {
                return new Plan(null, List.of());
            }
            Long earliestChangelog = changelogs.earliestChangelogId();
            long firstReadable = earliestChangelog != null && earliestChangelog < earliest ? earliestChangelog
                    : earliest;
            if (startExclusive < firstReadable - 1 || endInclusive > latest) {
                throw outOfRange("the retained snapshots are " + earliest + " to " + latest
                        + (firstReadable < earliest ? " and the retained changelogs start at " + firstReadable : ""));
            }
            for (long id = startExclusive + 1; id <= endInclusive; id++) {
                splits.addAll(changesOf(id));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot plan the changes between snapshots " + startExclusive + " and "
                    + endInclusive + " of table " + tableName + ": " + e.getMessage(), e);
        }
        return new Plan(endInclusive, splits);
    }

    /** The changes of snapshot {@code id}, or of its long-lived changelog once the snapshot expired. */
    private List<DataSplit> changesOf(long id) throws IOException {
        if (snapshots.snapshotExists(id)) {
            try {
                return changes.plan(snapshots.snapshot(id));
            } catch (FileNotFoundException | ExpiredSnapshotException e) {
                // Expired meanwhile: its changelog may have been kept.
                if (changelogs.retainedChangelog(id).isEmpty()) {
                    throw e;
                }
            }
        }
        Optional<Snapshot> entry = changelogs.retainedChangelog(id);
        if (entry.isEmpty()) {
            throw outOfRange("snapshot " + id + " does not exist and no changelog of it is retained (expired "
                    + "meanwhile? keep it longer with 'changelog.time-retained' / 'changelog.num-retained.min')");
        }
        return changes.planChangelogEntry(entry.get());
    }

    private IllegalArgumentException outOfRange(String why) {
        return new IllegalArgumentException("Cannot read the changes between snapshots " + startExclusive + " and "
                + endInclusive + " of table " + tableName + ": " + why + "; fix option 'incremental-between'");
    }
}
