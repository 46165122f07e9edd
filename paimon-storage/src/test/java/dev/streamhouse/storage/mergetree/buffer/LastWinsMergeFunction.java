package dev.streamhouse.storage.mergetree.buffer;

import dev.streamhouse.storage.mergetree.KeyValue;
import dev.streamhouse.storage.mergetree.MergeFunction;

/** Test merge function: the last added version wins, retractions included; counts what it saw. */
class LastWinsMergeFunction implements MergeFunction {
    private final boolean resultIsLastVersion;
    private KeyValue last;
    long added;

    LastWinsMergeFunction() {
        this(false);
    }

    /** @param resultIsLastVersion what {@link #resultIsLastVersion()} answers */
    LastWinsMergeFunction(boolean resultIsLastVersion) {
        this.resultIsLastVersion = resultIsLastVersion;
    }

    @Override
    public boolean resultIsLastVersion() {
        return resultIsLastVersion;
    }

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
