package dev.streamhouse.storage.mergetree.compact;

import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.mergetree.KeyValue;
import dev.streamhouse.storage.mergetree.KeyValueLayout;
import dev.streamhouse.storage.mergetree.MergeFunction;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.BiPredicate;

/**
 * The lookup compaction's merge for every engine but first-row (Apache Paimon's lookup semantics).
 *
 * <p><b>Merged version.</b> The version on the smallest level above 0 is the key's whole merged value
 * (every lookup compaction merged the older value into what it wrote), so the merge takes that one
 * and the level-0 versions, and ignores versions on deeper levels. When no version above level 0 was
 * read and the key has a level-0 version, the newest version in the levels above the compaction is
 * looked up and merged in its place in the {@code versionOrder}.
 *
 * <p><b>Changelog</b> (only for keys with a level-0 version): with no previous value, or a retracted
 * one, +I of the merged version if it is not a retraction; with a previous value, -D of it if the
 * merged version is a retraction, otherwise -U of it and +U of the merged version, unless
 * {@code sameValue} says they are equal ({@code changelog-producer.row-deduplicate}).
 */
final class LookupChangelogMerge extends CollectingMerge {
    private final MergeFunction engine;
    private final Comparator<KeyValue> versionOrder;
    private final BiPredicate<InternalRow, InternalRow> sameValue;
    private final List<KeyValue> candidates = new ArrayList<>();

    /**
     * @param engine the table's merge engine (a lone version passing through unchanged)
     * @param sameValue whether two value rows count as unchanged, or null to keep every -U/+U pair
     */
    LookupChangelogMerge(KeyValueLayout layout, MergeFunction engine,
            Comparator<KeyValue> versionOrder, BiPredicate<InternalRow, InternalRow> sameValue) {
        super(layout);
        this.engine = engine;
        this.versionOrder = versionOrder;
        this.sameValue = sameValue;
    }

    @Override
    public KeyValue result() {
        KeyValue previous = newestAboveLevelZero();
        boolean levelZero = containsLevelZero();
        candidates.clear();
        for (KeyValue kv : versions) {
            if (kv.level() <= 0 || kv == previous) {
                candidates.add(kv);
            }
        }
        if (previous == null && levelZero) {
            previous = lookUp(versions.get(0).key());
            if (previous != null) {
                insertInOrder(previous);
            }
        }
        engine.reset();
        for (KeyValue kv : candidates) {
            engine.add(kv);
        }
        KeyValue merged = engine.result();
        if (levelZero && producesChangelog()) {
            changelog(previous, merged);
        }
        return merged;
    }

    private void insertInOrder(KeyValue kv) {
        int at = candidates.size();
        for (int i = 0; i < candidates.size(); i++) {
            if (versionOrder.compare(kv, candidates.get(i)) < 0) {
                at = i;
                break;
            }
        }
        candidates.add(at, kv);
    }

    private void changelog(KeyValue before, KeyValue after) {
        boolean afterExists = after != null && !after.isRetract();
        if (before == null || before.isRetract()) {
            if (afterExists) {
                emit(RowKind.INSERT, after);
            }
        } else if (!afterExists) {
            emit(RowKind.DELETE, before);
        } else if (sameValue == null || !sameValue.test(before.value(), after.value())) {
            emit(RowKind.UPDATE_BEFORE, before);
            emit(RowKind.UPDATE_AFTER, after);
        }
    }
}
