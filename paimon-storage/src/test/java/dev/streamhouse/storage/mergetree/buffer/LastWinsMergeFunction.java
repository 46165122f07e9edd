package dev.streamhouse.storage.mergetree.buffer;

import dev.streamhouse.storage.mergetree.KeyValue;
import dev.streamhouse.storage.mergetree.MergeFunction;

/** Test merge function: the last added version wins, retractions included; counts what it saw. */
class LastWinsMergeFunction implements MergeFunction {
    private KeyValue last;
    long added;

    @Override
    public void reset() {
        last = null;
    }

    @Override
    public void add(KeyValue kv) {
        last = kv;
        added++;
    }

    @Override
    public KeyValue result() {
        return last;
    }
}
