package dev.streamhouse.storage.mergetree.read;

import dev.streamhouse.storage.mergetree.MergeFunction;
import dev.streamhouse.storage.mergetree.MergeFunctionFactory;
import dev.streamhouse.storage.options.ChangelogOptions;
import dev.streamhouse.storage.options.ChangelogOptions.ChangelogProducer;
import dev.streamhouse.storage.options.MergeTreeOptions;
import dev.streamhouse.storage.options.MergeTreeOptions.MergeEngine;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.schema.TableSchema;

/**
 * The merge engine ({@link MergeFunctionFactory}) of a table's {@code merge-engine}. Only
 * {@code deduplicate} exists so far; partial-update, aggregation and first-row plug in here as one
 * factory each, declaring their capabilities there.
 */
public final class MergeEngines {
    private MergeEngines() {}

    /**
     * The merge engine of {@code schema}'s options, honouring {@code ignore-delete}.
     *
     * @throws UnsupportedOperationException for engines not implemented yet (partial-update,
     *     aggregation, first-row), and for a {@code changelog-producer} the engine does not support
     */
    public static MergeFunctionFactory create(TableSchema schema) {
        return create(schema.tableOptions());
    }

    /** Like {@link #create(TableSchema)} for table options. */
    public static MergeFunctionFactory create(Options tableOptions) {
        MergeEngine engine = tableOptions.get(MergeTreeOptions.MERGE_ENGINE);
        boolean ignoreDelete = tableOptions.get(MergeTreeOptions.IGNORE_DELETE);
        MergeFunctionFactory factory;
        switch (engine) {
            case DEDUPLICATE:
                factory = deduplicate(ignoreDelete);
                break;
            default:
                throw new UnsupportedOperationException("Cannot merge versions of primary keys: option '"
                        + MergeTreeOptions.MERGE_ENGINE.key() + "' = '" + engine + "' is not supported yet; "
                        + "only 'deduplicate' is");
        }
        ChangelogProducer producer = tableOptions.get(ChangelogOptions.CHANGELOG_PRODUCER);
        if (!factory.supportsChangelogProducer(producer)) {
            throw new UnsupportedOperationException("Cannot use option '" + ChangelogOptions.CHANGELOG_PRODUCER.key()
                    + "' = '" + producer + "' with option '" + MergeTreeOptions.MERGE_ENGINE.key() + "' = '"
                    + engine + "': the merge engine does not support it");
        }
        return factory;
    }

    /** The {@code deduplicate} engine: the last version wins (see {@link DeduplicateMergeFunction}). */
    public static MergeFunctionFactory deduplicate(boolean ignoreDelete) {
        return new Deduplicate(ignoreDelete);
    }

    /** Deduplicate's capabilities: it takes one version whole, so projection and value filters pass through. */
    private record Deduplicate(boolean ignoreDelete) implements MergeFunctionFactory {
        @Override
        public MergeFunction create() {
            return new DeduplicateMergeFunction(ignoreDelete);
        }

        /** One version wins as it is, unless ignore-delete drops a lone retraction. */
        @Override
        public boolean keepsSingleVersion() {
            return !ignoreDelete;
        }

        @Override
        public boolean mergedRowIsStoredVersion() {
            return true;
        }

        @Override
        public boolean latestChangeIsMergedRow() {
            return true;
        }
    }
}
