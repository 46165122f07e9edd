package dev.streamhouse.flink.source.event;

import dev.streamhouse.storage.table.source.DataSplit;

import java.io.Serializable;

/**
 * Which changes a set of not fully read splits may still hold, as far as a consumer's progress
 * ({@code consumer/consumer-<id>}, "the next snapshot to read") can express it.
 *
 * <ul>
 *   <li>A delta split of snapshot S holds the changes of S: a consumer may resume no later than S.</li>
 *   <li>A full split of snapshot S holds the changes of every snapshot up to S merged. No next
 *       snapshot expresses "read S in full": resuming at S would skip the rows of older snapshots and
 *       resuming at S+1 would skip S as well. So while a full split is not finished, no progress may be
 *       recorded at all ({@link #fullSplitPending()}); a consumer without progress starts as
 *       {@code scan.mode} says, i.e. with the full snapshot again.</li>
 * </ul>
 * Immutable.
 *
 * @param earliestDeltaSnapshot the smallest snapshot id of the pending delta splits; null for none
 * @param fullSplitPending whether a full (non-delta) split is pending
 */
public record PendingChanges(Long earliestDeltaSnapshot, boolean fullSplitPending) implements Serializable {
    private static final long serialVersionUID = 1L;

    /** Nothing pending. */
    public static final PendingChanges NONE = new PendingChanges(null, false);

    /** What the given splits may still hold. */
    public static PendingChanges of(Iterable<DataSplit> splits) {
        PendingChanges out = NONE;
        for (DataSplit split : splits) {
            out = out.merge(split.delta()
                    ? new PendingChanges(split.snapshotId(), false)
                    : new PendingChanges(null, true));
        }
        return out;
    }

    /** What both hold together. */
    public PendingChanges merge(PendingChanges other) {
        Long earliest = earliestDeltaSnapshot;
        if (earliest == null || (other.earliestDeltaSnapshot != null && other.earliestDeltaSnapshot < earliest)) {
            earliest = other.earliestDeltaSnapshot;
        }
        return new PendingChanges(earliest, fullSplitPending || other.fullSplitPending);
    }
}
