package dev.streamhouse.storage.mergetree.engine;

import dev.streamhouse.storage.mergetree.KeyValue;
import dev.streamhouse.storage.mergetree.MergeFunction;

/**
 * The {@code deduplicate} merge engine: the last version added wins. The result may be a retraction
 * (-U/-D): table reads then drop the key, while compactions that do not reach the last level keep the
 * retraction so it still hides older versions below. With {@code ignore-delete}, retractions are
 * skipped entirely, so the result is the last insert or update, or null if there is none.
 */
final class DeduplicateMergeFunction implements MergeFunction {
    private final boolean ignoreDelete;
    private KeyValue latest;

    DeduplicateMergeFunction(boolean ignoreDelete) {
        this.ignoreDelete = ignoreDelete;
    }

    @Override
    public void reset() {
        latest = null;
    }

    @Override
    public void add(KeyValue kv) {
        if (ignoreDelete && kv.isRetract()) {
            return;
        }
        latest = kv;
    }

    @Override
    public KeyValue result() {
        return latest;
    }

    @Override
    public boolean resultIsLastVersion() {
        return !ignoreDelete;
    }
}
