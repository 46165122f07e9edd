package dev.streamhouse.storage.mergetree;

import java.io.Serializable;

/** Creates merge functions (one per reader or writer); the merge engine of a table. */
@FunctionalInterface
public interface MergeFunctionFactory extends Serializable {
    MergeFunction create();
}
