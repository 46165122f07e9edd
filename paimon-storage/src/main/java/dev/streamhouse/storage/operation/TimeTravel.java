package dev.streamhouse.storage.operation;

import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.snapshot.SnapshotManager;

import java.io.IOException;
import java.time.Instant;
import java.util.Optional;

/**
 * Finds the snapshot a read "as of" a point in time uses: the latest snapshot whose commit time
 * ({@code timeMillis}) is at or before it. Snapshots are committed in id order, so their times do not
 * decrease and a binary search over the retained ids (earliest..latest) finds it reading O(log n)
 * snapshot files.
 */
final class TimeTravel {
    private TimeTravel() {}

    /**
     * @return the snapshot, or empty if the table has no snapshot at all
     * @throws IllegalArgumentException if every retained snapshot is younger than {@code timestampMillis}
     */
    static Optional<Snapshot> latestAtOrBefore(SnapshotManager snapshots, long timestampMillis, String tableName)
            throws IOException {
        Long earliestId = snapshots.earliestSnapshotId();
        Long latestId = snapshots.latestSnapshotId();
        if (earliestId == null || latestId == null) {
            return Optional.empty();
        }
        Snapshot earliest = snapshots.snapshot(earliestId);
        if (earliest.timeMillis() > timestampMillis) {
            throw new IllegalArgumentException("Cannot read table " + tableName + " as of " + timestampMillis + " ("
                    + Instant.ofEpochMilli(timestampMillis) + "): its earliest snapshot " + earliestId
                    + " was committed later, at " + earliest.timeMillis() + " ("
                    + Instant.ofEpochMilli(earliest.timeMillis()) + "); older snapshots have expired or never existed");
        }
        Snapshot found = earliest;
        long low = earliestId + 1;
        long high = latestId;
        while (low <= high) {
            long mid = low + (high - low) / 2;
            Snapshot s = snapshots.snapshot(mid);
            if (s.timeMillis() <= timestampMillis) {
                found = s;
                low = mid + 1;
            } else {
                high = mid - 1;
            }
        }
        return Optional.of(found);
    }
}
