package dev.streamhouse.storage.mergetree;

import java.io.Serializable;

/** Creates merge functions (one per reader or writer); the merge engine of a table. */
@FunctionalInterface
public interface MergeFunctionFactory extends Serializable {
    MergeFunction create();

    /**
     * Whether a key with a single version always merges to exactly that version, retractions
     * included. Then a sorted run (whose keys are unique) merged on its own is the run itself, and
     * readers skip merging it.
     */
    default boolean keepsSingleVersion() {
        return false;
    }
}
