package dev.streamhouse.storage.mergetree.compact;

import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.mergetree.KeyValue;
import dev.streamhouse.storage.mergetree.KeyValueLayout;
import dev.streamhouse.storage.mergetree.MergeFunctionFactory;

import java.util.Comparator;
import java.util.function.BiPredicate;

/**
 * Creates the per-call merges of a {@link LookupCompactRewriter} for a table's merge engine: first-row
 * (the engine that keeps each key once above level 0, {@link MergeFunctionFactory#readsLevelZero()}
 * false) gets {@link FirstRowLookupMerge}, every other engine {@link LookupChangelogMerge}.
 */
public final class LookupMerges {
    private final MergeFunctionFactory engine;
    private final KeyValueLayout layout;
    private final Comparator<KeyValue> versionOrder;
    private final BiPredicate<InternalRow, InternalRow> sameValue;

    /**
     * @param engine the table's merge engine over whole value rows
     * @param versionOrder the order in which the engine receives versions of a key
     * @param sameValue whether a -U/+U pair of two value rows is left out of the changelog
     *     ({@code changelog-producer.row-deduplicate}), or null to keep every pair
     */
    public LookupMerges(MergeFunctionFactory engine, KeyValueLayout layout, Comparator<KeyValue> versionOrder,
            BiPredicate<InternalRow, InternalRow> sameValue) {
        this.engine = engine;
        this.layout = layout;
        this.versionOrder = versionOrder;
        this.sameValue = sameValue;
    }

    CollectingMerge create() {
        if (!engine.readsLevelZero()) {
            return new FirstRowLookupMerge(layout, engine.create());
        }
        return new LookupChangelogMerge(layout, engine.create(), versionOrder, sameValue);
    }
}
