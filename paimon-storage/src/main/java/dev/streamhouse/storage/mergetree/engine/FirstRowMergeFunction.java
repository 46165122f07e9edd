package dev.streamhouse.storage.mergetree.engine;

import dev.streamhouse.storage.mergetree.KeyValue;
import dev.streamhouse.storage.mergetree.MergeFunction;

/**
 * The {@code first-row} merge engine: the oldest version of a key wins, unchanged. Retractions are
 * skipped with {@code ignore-delete}; without it writers refuse them, so meeting one here means a
 * table written against the engine's rules.
 */
final class FirstRowMergeFunction implements MergeFunction {
    private final boolean ignoreDelete;
    private KeyValue first;

    FirstRowMergeFunction(boolean ignoreDelete) {
        this.ignoreDelete = ignoreDelete;
    }

    @Override
    public void reset() {
        first = null;
    }

    @Override
    public void add(KeyValue kv) {
        if (kv.isRetract()) {
            if (ignoreDelete) {
                return;
            }
            throw new IllegalArgumentException(FirstRowEngine.RETRACT_REFUSAL);
        }
        if (first == null) {
            first = kv;
        }
    }

    @Override
    public KeyValue result() {
        return first;
    }
}
