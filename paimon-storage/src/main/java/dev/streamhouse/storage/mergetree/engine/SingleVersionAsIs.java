package dev.streamhouse.storage.mergetree.engine;

import dev.streamhouse.storage.mergetree.KeyValue;
import dev.streamhouse.storage.mergetree.MergeFunction;

/**
 * Passes a key's only version through unchanged and merges only keys with two or more versions, as
 * Apache Paimon 1.3 does everywhere it merges (write buffer, compaction, merge-on-read). So a lone
 * version is stored and read exactly as written, whatever the engine would make of it (e.g. a
 * partial-update row whose sequence group is NULL keeps its group columns; a lone retraction stays
 * one). Every engine's merge function is wrapped in this.
 */
final class SingleVersionAsIs implements MergeFunction {
    private final MergeFunction merge;
    private KeyValue first;
    private boolean merging;

    SingleVersionAsIs(MergeFunction merge) {
        this.merge = merge;
    }

    /**
     * The function {@code merge} passes several versions to, or {@code merge} itself when it has no
     * pass-through: for a wrapper that decides which versions are merged before a pass-through of its own.
     */
    static MergeFunction unwrapped(MergeFunction merge) {
        return merge instanceof SingleVersionAsIs passThrough ? passThrough.merge : merge;
    }

    @Override
    public void reset() {
        first = null;
        merging = false;
        merge.reset();
    }

    @Override
    public void add(KeyValue kv) {
        if (first == null) {
            first = kv;
            return;
        }
        if (!merging) {
            merge.add(first);
            merging = true;
        }
        merge.add(kv);
    }

    @Override
    public KeyValue result() {
        return merging ? merge.result() : first;
    }
}
