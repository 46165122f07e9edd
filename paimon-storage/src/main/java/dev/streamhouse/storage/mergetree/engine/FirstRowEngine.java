package dev.streamhouse.storage.mergetree.engine;

import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.mergetree.MergeFunction;
import dev.streamhouse.storage.mergetree.MergeFunctionFactory;
import dev.streamhouse.storage.options.ChangelogOptions.ChangelogProducer;

/**
 * The {@code first-row} merge engine's capabilities. Its writer keeps each key once in the levels
 * above level 0 (a key that already lives there is dropped when level 0 is compacted), so batch reads
 * skip level 0 and read the other levels without merging, as Apache Paimon 1.3 does (docs/format.md §8.2).
 */
record FirstRowEngine(boolean ignoreDelete) implements MergeFunctionFactory {
    static final String RETRACT_REFUSAL = "The first-row merge engine cannot take delete records (-D/-U): "
            + "set 'ignore-delete' = 'true' to drop them";

    @Override
    public MergeFunction create() {
        return new SingleVersionAsIs(new FirstRowMergeFunction(ignoreDelete));
    }

    @Override
    public boolean rawReadAcrossLevels() {
        return true;
    }

    @Override
    public boolean mergedRowIsStoredVersion() {
        return true;
    }

    @Override
    public boolean readsLevelZero() {
        return false;
    }

    @Override
    public boolean supportsChangelogProducer(ChangelogProducer producer) {
        return producer == ChangelogProducer.NONE || producer == ChangelogProducer.LOOKUP;
    }

    @Override
    public String refusesInput(RowKind kind) {
        return kind.isRetract() && !ignoreDelete ? RETRACT_REFUSAL : null;
    }
}
