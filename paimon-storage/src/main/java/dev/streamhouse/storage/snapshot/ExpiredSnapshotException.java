package dev.streamhouse.storage.snapshot;

/**
 * A read needs a snapshot that no longer exists: it was expired before the read got to it. Retrying
 * does not help; the changes it held are gone for this reader. The message names the table and the
 * snapshot and says how to avoid it.
 */
public final class ExpiredSnapshotException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    private final long snapshotId;

    /**
     * @param earliestSnapshotId the earliest id still readable: the earliest snapshot, or the earliest
     *     long-lived changelog for a read of changes
     */
    public ExpiredSnapshotException(String tableName, long snapshotId, long earliestSnapshotId) {
        super("Cannot read snapshot " + snapshotId + " of table " + tableName + ": it has expired (the earliest "
                + "one still retained is " + earliestSnapshotId + "). Start from snapshot " + earliestSnapshotId
                + " or later (option 'scan.snapshot-id' or 'scan.mode'), and keep snapshots longer for slow readers "
                + "('snapshot.time-retained', 'snapshot.num-retained.min', or a 'consumer-id'), or for streaming "
                + "and incremental reads only their changelog ('changelog.time-retained', "
                + "'changelog.num-retained.min')");
        this.snapshotId = snapshotId;
    }

    /** The snapshot that was needed. */
    public long snapshotId() {
        return snapshotId;
    }
}
