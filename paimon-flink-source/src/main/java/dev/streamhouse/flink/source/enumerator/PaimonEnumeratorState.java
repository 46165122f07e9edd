package dev.streamhouse.flink.source.enumerator;

import dev.streamhouse.flink.source.split.PaimonSplit;

import java.util.List;
import java.util.Objects;

/**
 * What the enumerator keeps in a checkpoint: the splits not yet assigned to any reader and, for an
 * unbounded read, the next snapshot its scan plans ({@code StreamTableScan.checkpoint()}). Splits that
 * readers hold are in the readers' state (with their progress), and splits assigned after the
 * checkpoint come back through {@code addSplitsBack}; so a bounded read never plans again on restore
 * and an unbounded one resumes planning at {@link #nextSnapshotId()}. Immutable.
 */
public final class PaimonEnumeratorState {
    private final List<PaimonSplit> unassignedSplits;
    private final Long nextSnapshotId;

    /** The state of a bounded read. */
    public PaimonEnumeratorState(List<PaimonSplit> unassignedSplits) {
        this(unassignedSplits, null);
    }

    /**
     * @param nextSnapshotId the next snapshot an unbounded read plans; null for a bounded read or
     *     before an unbounded read decided where it starts
     */
    public PaimonEnumeratorState(List<PaimonSplit> unassignedSplits, Long nextSnapshotId) {
        this.unassignedSplits = List.copyOf(unassignedSplits);
        this.nextSnapshotId = nextSnapshotId;
    }

    public List<PaimonSplit> unassignedSplits() {
        return unassignedSplits;
    }

    /** The next snapshot an unbounded read plans; null if none was decided (or the read is bounded). */
    public Long nextSnapshotId() {
        return nextSnapshotId;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PaimonEnumeratorState
                && ((PaimonEnumeratorState) o).unassignedSplits.equals(unassignedSplits)
                && Objects.equals(((PaimonEnumeratorState) o).nextSnapshotId, nextSnapshotId);
    }

    @Override
    public int hashCode() {
        return Objects.hash(unassignedSplits, nextSnapshotId);
    }

    @Override
    public String toString() {
        return "PaimonEnumeratorState{" + unassignedSplits.size() + " unassigned splits"
                + (nextSnapshotId == null ? "" : ", next snapshot " + nextSnapshotId) + "}";
    }
}
