package dev.streamhouse.storage.table.source;

import dev.streamhouse.storage.maintenance.consumer.ConsumerManager;
import dev.streamhouse.storage.snapshot.ChangelogManager;
import dev.streamhouse.storage.snapshot.ExpiredSnapshotException;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.snapshot.SnapshotManager;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;
import java.util.function.LongFunction;

/**
 * The {@link StreamTableScan} of a data table: a {@link StartingPoint} from {@link StartingPoints},
 * then the changes of one snapshot per plan from {@link SnapshotChangePlanner}. The changes of a
 * snapshot that expired are read from its long-lived changelog ({@code changelog/changelog-<id>}) while
 * that is retained; once neither is, the read fails with {@link ExpiredSnapshotException}.
 */
final class DataTableStreamScan implements StreamTableScan {
    private final StartingPoints startingPoints;
    private final LongFunction<TableScan> fullScans;
    private final SnapshotChangePlanner changes;
    private final SnapshotManager snapshots;
    private final ChangelogManager changelogs;
    private final ConsumerManager consumers;
    private final String consumerId;
    private final String tableName;

    private Long nextSnapshotId;

    /**
     * @param fullScans plans the live files of a snapshot (with this read's filters)
     * @param consumerId the read's {@code consumer-id}, or null
     */
    DataTableStreamScan(StartingPoints startingPoints, LongFunction<TableScan> fullScans,
            SnapshotChangePlanner changes, SnapshotManager snapshots, ChangelogManager changelogs,
            ConsumerManager consumers, String consumerId, String tableName) {
        this.startingPoints = startingPoints;
        this.fullScans = fullScans;
        this.changes = changes;
        this.snapshots = snapshots;
        this.changelogs = changelogs;
        this.consumers = consumers;
        this.consumerId = consumerId;
        this.tableName = tableName;
    }

    @Override
    public TableScan.Plan plan() {
        try {
            if (nextSnapshotId == null) {
                Optional<StartingPoint> start = startingPoints.startingPoint();
                if (start.isEmpty()) {
                    return new TableScan.Plan(null, List.of());
                }
                Long full = start.get().fullSnapshotId();
                TableScan.Plan fullPlan = full == null ? null : fullScans.apply(full).plan();
                nextSnapshotId = start.get().nextSnapshotId();
                if (fullPlan != null) {
                    return new TableScan.Plan(full, fullPlan.splits());
                }
            }
            return nextChanges();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot plan the streaming read of table " + tableName + " at snapshot "
                    + nextSnapshotId + ": " + e.getMessage(), e);
        }
    }

    private TableScan.Plan nextChanges() throws IOException {
        long id = nextSnapshotId;
        List<DataSplit> splits;
        if (belowEarliestSnapshot(id)) {
            splits = retainedChangelog(id);
        } else {
            try {
                if (!snapshots.snapshotExists(id)) {
                    if (!belowEarliestSnapshot(id)) {
                        return new TableScan.Plan(null, List.of());
                    }
                    splits = retainedChangelog(id);
                } else {
                    splits = changes.plan(snapshots.snapshot(id));
                }
            } catch (FileNotFoundException | ExpiredSnapshotException e) {
                // Expired meanwhile (expiration deletes a snapshot's files before the snapshot file itself).
                if (!belowEarliestSnapshot(id)) {
                    throw e;
                }
                splits = retainedChangelog(id);
            }
        }
        nextSnapshotId = id + 1;
        return new TableScan.Plan(id, splits);
    }

    private boolean belowEarliestSnapshot(long id) throws IOException {
        Long earliest = snapshots.earliestSnapshotId();
        return earliest != null && id < earliest;
    }

    /** The changes of expired snapshot {@code id} from its long-lived changelog, if that is retained. */
    private List<DataSplit> retainedChangelog(long id) throws IOException {
        Optional<Snapshot> entry = changelogs.retainedChangelog(id);
        if (entry.isEmpty()) {
            throw expired(id);
        }
        try {
            return changes.planChangelogEntry(entry.get());
        } catch (FileNotFoundException e) {
            // Changelog expiration moves changelog/EARLIEST past an entry before deleting its files.
            if (changelogs.retainedChangelog(id).isEmpty()) {
                throw expired(id);
            }
            throw e;
        }
    }

    private ExpiredSnapshotException expired(long id) throws IOException {
        Long earliest = snapshots.earliestSnapshotId();
        Long earliestChangelog = changelogs.earliestChangelogId();
        long readable = earliest == null ? id + 1 : earliest;
        if (earliestChangelog != null && earliestChangelog > id && earliestChangelog < readable) {
            readable = earliestChangelog;
        }
        return new ExpiredSnapshotException(tableName, id, readable);
    }

    @Override
    public Long checkpoint() {
        return nextSnapshotId;
    }

    @Override
    public void restore(Long nextSnapshotId) {
        if (nextSnapshotId != null && nextSnapshotId < 1) {
            throw new IllegalArgumentException("Cannot resume the streaming read of table " + tableName
                    + " at snapshot " + nextSnapshotId + ": snapshot ids start at 1");
        }
        this.nextSnapshotId = nextSnapshotId;
    }

    @Override
    public Optional<String> consumerId() {
        return Optional.ofNullable(consumerId);
    }

    @Override
    public void recordConsumerProgress(long nextSnapshotId) throws IOException {
        if (consumerId == null) {
            throw new IllegalStateException("The streaming read of table " + tableName + " has no consumer id");
        }
        consumers.commit(consumerId, nextSnapshotId);
    }
}
