package dev.streamhouse.flink.source.enumerator;

import dev.streamhouse.flink.source.split.PaimonSplit;

import java.util.List;
import java.util.Objects;

/**
 * What the enumerator keeps in a checkpoint: the splits not yet assigned to any reader. Splits that
 * readers hold are in the readers' state (with their progress), and splits assigned after the
 * checkpoint come back through {@code addSplitsBack}; so restoring never plans again. Immutable.
 */
public final class PaimonEnumeratorState {
    private final List<PaimonSplit> unassignedSplits;

    public PaimonEnumeratorState(List<PaimonSplit> unassignedSplits) {
        this.unassignedSplits = List.copyOf(unassignedSplits);
    }

    public List<PaimonSplit> unassignedSplits() {
        return unassignedSplits;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PaimonEnumeratorState
                && ((PaimonEnumeratorState) o).unassignedSplits.equals(unassignedSplits);
    }

    @Override
    public int hashCode() {
        return Objects.hash(unassignedSplits);
    }

    @Override
    public String toString() {
        return "PaimonEnumeratorState{" + unassignedSplits.size() + " unassigned splits}";
    }
}
