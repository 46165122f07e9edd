package dev.streamhouse.storage.mergetree.engine;

import dev.streamhouse.storage.mergetree.KeyValue;
import dev.streamhouse.storage.mergetree.LookupVersions;
import dev.streamhouse.storage.mergetree.MergeFunction;

import java.util.ArrayList;
import java.util.List;

/**
 * The merge of a table whose compaction looks up older versions ({@link LookupMerge}): of a key's
 * versions above level 0 only the one on the smallest level counts (the first one added on a tie),
 * because that compaction already merged every deeper version into it; merging those again would,
 * e.g., add an aggregation's older values twice. That version and the versions on level 0 or not read
 * from a file ({@link KeyValue#UNKNOWN_LEVEL}) go to the engine's function in the order they were
 * added; the deeper ones are left out. As Apache Paimon 1.3 merges such tables.
 *
 * <p>The versions are buffered until {@link #result()}: the caller must not reuse an added KeyValue
 * until it is done with the result, as {@link MergeFunction} requires anyway.
 */
final class LookupMergeFunction implements MergeFunction {
    private final MergeFunction merge;
    private final List<KeyValue> versions = new ArrayList<>();

    /** @param merge the engine's own function, without the single-version pass-through */
    LookupMergeFunction(MergeFunction merge) {
        this.merge = merge;
    }

    @Override
    public void reset() {
        versions.clear();
    }

    @Override
    public void add(KeyValue kv) {
        versions.add(kv);
    }

    @Override
    public KeyValue result() {
        KeyValue topmost = LookupVersions.newestAboveLevelZero(versions);
        merge.reset();
        for (KeyValue v : versions) {
            if (v.level() <= 0 || v == topmost) {
                merge.add(v);
            }
        }
        return merge.result();
    }
}
