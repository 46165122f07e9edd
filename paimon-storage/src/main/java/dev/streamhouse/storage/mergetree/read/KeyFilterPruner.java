package dev.streamhouse.storage.mergetree.read;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.data.FieldGetter;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRowUtils;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.predicate.Predicate;
import dev.streamhouse.storage.predicate.PredicateBuilder;
import dev.streamhouse.storage.stats.SimpleStats;
import dev.streamhouse.storage.types.RowType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Drops data files of a primary-key table that cannot hold a key matching a filter over the key
 * columns, judging by {@code _KEY_STATS} and by the {@code [_MIN_KEY, _MAX_KEY]} range. Safe for
 * merge-on-read: all versions of a key share the key, so a dropped file only held versions of keys the
 * filter rejects anyway. Never drops a file that may hold a matching key. Thread-safe.
 */
public final class KeyFilterPruner {
    private final RowType keyType;
    private final Predicate keyFilter;
    private final FieldGetter[] keyGetters;
    private final Long[] noNulls;

    /** @param keyFilter a predicate over positions of {@code keyType} (the trimmed primary key) */
    public KeyFilterPruner(RowType keyType, Predicate keyFilter) {
        this.keyType = keyType;
        this.keyFilter = Objects.requireNonNull(keyFilter, "keyFilter");
        this.keyGetters = InternalRowUtils.fieldGetters(keyType.fieldTypes());
        this.noNulls = new Long[keyType.fieldCount()];
        Arrays.fill(noNulls, 0L);
    }

    /**
     * The conjuncts of a filter over table columns that only use key columns, moved to key positions;
     * null if there are none.
     */
    public static Predicate keyFilterOf(Predicate tableFilter, RowType tableType, RowType keyType) {
        if (tableFilter == null) {
            return null;
        }
        int[] mapping = new int[tableType.fieldCount()];
        for (int i = 0; i < mapping.length; i++) {
            mapping[i] = keyType.fieldIndex(tableType.field(i).name());
        }
        return PredicateBuilder.pickByFieldMapping(tableFilter, mapping).orElse(null);
    }

    /** The files that may hold a matching key, in their original order. */
    public List<DataFileMeta> prune(List<DataFileMeta> files) {
        List<DataFileMeta> out = new ArrayList<>(files.size());
        for (DataFileMeta f : files) {
            if (mayContainMatch(f)) {
                out.add(f);
            }
        }
        return out;
    }

    /** False only if no key in {@code file} can satisfy the filter. */
    public boolean mayContainMatch(DataFileMeta file) {
        SimpleStats stats = file.keyStats();
        int arity = keyType.fieldCount();
        if (stats != null && stats.minValues().arity() == arity && stats.maxValues().arity() == arity
                && !keyFilter.test(file.rowCount(), stats.minValues(), stats.maxValues(), stats.nullCounts())) {
            return false;
        }
        return testKeyRange(file);
    }

    /**
     * Keys are ordered field by field, so while {@code _MIN_KEY} and {@code _MAX_KEY} agree on a prefix
     * every key has that prefix, and the first differing field lies between their values. Later fields
     * are unknown. Key columns are NOT NULL, so null counts are zero.
     */
    private boolean testKeyRange(DataFileMeta file) {
        BinaryRow minKey = file.minKey();
        BinaryRow maxKey = file.maxKey();
        int arity = keyType.fieldCount();
        if (minKey == null || maxKey == null || minKey.arity() != arity || maxKey.arity() != arity) {
            return true;
        }
        GenericRow lower = new GenericRow(arity);
        GenericRow upper = new GenericRow(arity);
        for (int i = 0; i < arity; i++) {
            Object lo = keyGetters[i].get(minKey);
            Object hi = keyGetters[i].get(maxKey);
            lower.setField(i, lo);
            upper.setField(i, hi);
            if (lo == null || hi == null || InternalRowUtils.compare(lo, hi, keyType.typeAt(i)) != 0) {
                break;
            }
        }
        return keyFilter.test(file.rowCount(), lower, upper, noNulls);
    }
}
