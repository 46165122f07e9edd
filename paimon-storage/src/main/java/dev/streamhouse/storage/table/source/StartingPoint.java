package dev.streamhouse.storage.table.source;

/**
 * Where a streaming read starts: optionally one snapshot read in full, then the changes of every
 * snapshot from {@code nextSnapshotId} on.
 *
 * @param fullSnapshotId the snapshot whose live files the first plan returns, or null for none
 * @param nextSnapshotId the first snapshot whose changes are read
 */
record StartingPoint(Long fullSnapshotId, long nextSnapshotId) {

    static StartingPoint changesFrom(long nextSnapshotId) {
        return new StartingPoint(null, nextSnapshotId);
    }

    static StartingPoint fullThenChanges(long fullSnapshotId) {
        return new StartingPoint(fullSnapshotId, fullSnapshotId + 1);
    }
}
