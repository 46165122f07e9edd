package dev.streamhouse.storage.table.source;

import dev.streamhouse.storage.snapshot.ExpiredSnapshotException;

import dev.streamhouse.storage.consumer.ConsumerManager;
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
 * then the changes of one snapshot per plan from {@link SnapshotChangePlanner}.
 */
final class DataTableStreamScan implements StreamTableScan {
    private final StartingPoints startingPoints;
    private final LongFunction<TableScan> fullScans;
    private final SnapshotChangePlanner changes;
    private final SnapshotManager snapshots;
    private final ConsumerManager consumers;
    private final String consumerId;
    private final String tableName;

    private Long nextSnapshotId;

    /**
     * @param fullScans plans the live files of a snapshot (with this read's filters)
     * @param consumerId the read's {@code consumer-id}, or null
     */
    DataTableStreamScan(StartingPoints startingPoints, LongFunction<TableScan> fullScans,
            SnapshotChangePlanner changes, SnapshotManager snapshots, ConsumerManager consumers, String consumerId,
            String tableName) {
        this.startingPoints = startingPoints;
        this.fullScans = fullScans;
        this.changes = changes;
        this.snapshots = snapshots;
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
        Snapshot snapshot;
        try {
            if (!snapshots.snapshotExists(id)) {
                checkNotExpired(id);
                return new TableScan.Plan(null, List.of());
            }
            snapshot = snapshots.snapshot(id);
        } catch (FileNotFoundException e) {
            checkNotExpired(id);
            throw e;
        }
        List<DataSplit> splits;
        try {
            splits = changes.plan(snapshot);
        } catch (FileNotFoundException e) {
            // Expiration deletes a snapshot's files before the snapshot file itself.
            checkNotExpired(id);
            throw e;
        }
        nextSnapshotId = id + 1;
        return new TableScan.Plan(id, splits);
    }

    /** A missing snapshot below the earliest one can never appear again: it expired. */
    private void checkNotExpired(long id) throws IOException {
        Long earliest = snapshots.earliestSnapshotId();
        if (earliest != null && id < earliest) {
            throw new ExpiredSnapshotException(tableName, id, earliest);
        }
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
