package dev.streamhouse.storage.mergetree.compact;

import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.mergetree.KeyValue;
import dev.streamhouse.storage.mergetree.KeyValueLayout;
import dev.streamhouse.storage.mergetree.MergeFunction;

/**
 * The lookup compaction's merge for first-row, which keeps each key once above level 0: a key read
 * from a level above 0 keeps that (first) row; a key only on level 0 that the levels above the
 * compaction already hold is left out; any other key is new, its first row is written and, with a
 * changelog, emitted as +I (the changelog of first-row is insert-only).
 */
final class FirstRowLookupMerge extends CollectingMerge {
    private final MergeFunction engine;

    FirstRowLookupMerge(KeyValueLayout layout, MergeFunction engine) {
        super(layout);
        this.engine = engine;
    }

    @Override
    public KeyValue result() {
        engine.reset();
        for (KeyValue kv : versions) {
            engine.add(kv);
        }
        KeyValue first = engine.result();
        if (first == null || newestAboveLevelZero() != null) {
            return first;
        }
        if (lookUp(first.key()) != null) {
            return null;
        }
        if (producesChangelog()) {
            emit(RowKind.INSERT, first);
        }
        return first;
    }
}
