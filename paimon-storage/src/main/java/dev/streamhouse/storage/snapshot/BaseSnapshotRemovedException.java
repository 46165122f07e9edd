package dev.streamhouse.storage.snapshot;

/**
 * A new snapshot could not be published on top of the snapshot it was built on, because that one was
 * removed: the table was rolled back while the commit was being prepared. The new snapshot is not in
 * the table (it was never written, or it was removed again); the commit must not be retried on top of
 * the rolled-back table, since it was built from files the rollback removed from the table.
 */
public final class BaseSnapshotRemovedException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public BaseSnapshotRemovedException(String message) {
        super(message);
    }
}
