package dev.streamhouse.storage.mergetree.compact;

import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.mergetree.KeyValue;
import dev.streamhouse.storage.mergetree.KeyValueLayout;
import dev.streamhouse.storage.mergetree.MergeFunction;

import java.util.function.BiPredicate;

/**
 * The merge of a compaction to the last level for {@code changelog-producer} = full-compaction (Apache
 * Paimon's rules): the key's version on the last level is what the previous full compaction left, the
 * merge of all versions is what this one leaves, and the changelog is the difference. A key with one
 * version only is unchanged if that version is on the last level, else new (+I). Otherwise: +I of the
 * merged version without a last-level version; -D of the last-level version if the merge is a
 * retraction; -U/+U when they differ ({@code sameValue}, or always without it).
 */
final class FullChangelogMerge extends CollectingMerge {
    private final MergeFunction engine;
    private final int maxLevel;
    private final BiPredicate<InternalRow, InternalRow> sameValue;

    FullChangelogMerge(KeyValueLayout layout, MergeFunction engine, int maxLevel,
            BiPredicate<InternalRow, InternalRow> sameValue) {
        super(layout);
        this.engine = engine;
        this.maxLevel = maxLevel;
        this.sameValue = sameValue;
    }

    @Override
    public KeyValue result() {
        KeyValue top = null;
        for (KeyValue kv : versions) {
            if (kv.level() == maxLevel) {
                top = kv;
            }
        }
        engine.reset();
        for (KeyValue kv : versions) {
            engine.add(kv);
        }
        KeyValue merged = engine.result();
        boolean exists = merged != null && !merged.isRetract();
        if (producesChangelog()) {
            if (versions.size() == 1) {
                if (top == null && exists) {
                    emit(RowKind.INSERT, merged);
                }
            } else if (top == null || top.isRetract()) {
                if (exists) {
                    emit(RowKind.INSERT, merged);
                }
            } else if (!exists) {
                emit(RowKind.DELETE, top);
            } else if (sameValue == null || !sameValue.test(top.value(), merged.value())) {
                emit(RowKind.UPDATE_BEFORE, top);
                emit(RowKind.UPDATE_AFTER, merged);
            }
        }
        return exists ? merged : null;
    }
}
