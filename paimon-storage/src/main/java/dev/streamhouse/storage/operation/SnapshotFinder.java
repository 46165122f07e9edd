package dev.streamhouse.storage.operation;

import dev.streamhouse.storage.snapshot.CommitKind;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.snapshot.SnapshotManager;

import java.io.IOException;
import java.util.Iterator;
import java.util.Optional;

/**
 * Finds where a streaming read starts: the first snapshot committed at or after a time, or the latest
 * snapshot of a commit kind. Reads snapshot files; I/O failures are {@link IOException}s.
 */
public final class SnapshotFinder {
    private SnapshotFinder() {}

    /**
     * The id of the first snapshot whose commit time is at or after {@code timestampMillis}: the
     * earliest retained snapshot if even that one is, {@code latest + 1} (the next to be committed) if
     * every snapshot is older, or null if the table has no snapshot. Snapshot times do not decrease
     * with ids, so a binary search finds it reading O(log n) snapshot files.
     */
    public static Long firstAtOrAfter(SnapshotManager snapshots, long timestampMillis, String tableName)
            throws IOException {
        Long earliestId = snapshots.earliestSnapshotId();
        if (earliestId == null) {
            return null;
        }
        if (snapshots.snapshot(earliestId).timeMillis() >= timestampMillis) {
            return earliestId;
        }
        // The earliest snapshot is older than timestampMillis, so one at or before timestampMillis - 1 exists.
        Optional<Snapshot> before = TimeTravel.latestAtOrBefore(snapshots, timestampMillis - 1, tableName);
        return before.map(s -> s.id() + 1).orElse(earliestId);
    }

    /**
     * The newest retained snapshot of {@code kind}, or empty if there is none; reads snapshots from the
     * latest backwards until it finds one.
     */
    public static Optional<Snapshot> latestOfKind(SnapshotManager snapshots, CommitKind kind) throws IOException {
        Long earliestId = snapshots.earliestSnapshotId();
        Long latestId = snapshots.latestSnapshotId();
        if (earliestId == null || latestId == null) {
            return Optional.empty();
        }
        Iterator<Snapshot> it = snapshots.snapshotsDescending(earliestId, latestId);
        try {
            while (it.hasNext()) {
                Snapshot s = it.next();
                if (s.commitKind() == kind) {
                    return Optional.of(s);
                }
            }
        } catch (java.io.UncheckedIOException e) {
            throw e.getCause();
        }
        return Optional.empty();
    }
}
