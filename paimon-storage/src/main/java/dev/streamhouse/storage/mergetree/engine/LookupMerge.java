package dev.streamhouse.storage.mergetree.engine;

import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.mergetree.MergeFunction;
import dev.streamhouse.storage.mergetree.MergeFunctionFactory;
import dev.streamhouse.storage.options.ChangelogOptions.ChangelogProducer;

/**
 * A merge engine of a table that Apache Paimon compacts with lookups ({@code changelog-producer} =
 * {@code lookup}, {@code force-lookup}, deletion vectors; every engine but first-row): such a
 * compaction merges the older version of each key it rewrites, looked up in the deeper levels, into
 * the new one, so the version of a key on the smallest level above 0 is its merged value so far. Its
 * merge functions are {@link LookupMergeFunction}s over {@code engine}'s, inside the single-version
 * pass-through ({@link SingleVersionAsIs}, so a lone version is kept as the default of
 * {@link #keepsSingleVersion} says), as Paimon 1.3 merges these tables everywhere. Every other
 * capability is {@code engine}'s, and a projection binds {@code engine} to it.
 *
 * <p>Only tables whose levels keep that promise may be merged so: a compaction that merges without
 * looking up leaves a key's version on a small level without the deeper ones folded in.
 */
record LookupMerge(MergeFunctionFactory engine) implements MergeFunctionFactory {
    private static final long serialVersionUID = 1L;

    @Override
    public MergeFunction create() {
        return new SingleVersionAsIs(new LookupMergeFunction(SingleVersionAsIs.unwrapped(engine.create())));
    }

    @Override
    public boolean rawReadAcrossLevels() {
        return engine.rawReadAcrossLevels();
    }

    @Override
    public boolean mergedRowIsStoredVersion() {
        return engine.mergedRowIsStoredVersion();
    }

    @Override
    public boolean latestChangeIsMergedRow() {
        return engine.latestChangeIsMergedRow();
    }

    @Override
    public String refusesInput(RowKind kind) {
        return engine.refusesInput(kind);
    }

    @Override
    public boolean retractsUpdateBefore() {
        return engine.retractsUpdateBefore();
    }

    @Override
    public boolean readsLevelZero() {
        return engine.readsLevelZero();
    }

    @Override
    public boolean supportsChangelogProducer(ChangelogProducer producer) {
        return engine.supportsChangelogProducer(producer);
    }

    @Override
    public int[] readFields(int[] wanted, int fieldCount) {
        return engine.readFields(wanted, fieldCount);
    }

    @Override
    public MergeFunctionFactory forReadFields(int[] readFields) {
        MergeFunctionFactory bound = engine.forReadFields(readFields);
        return bound == engine ? this : new LookupMerge(bound);
    }
}
