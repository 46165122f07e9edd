package dev.streamhouse.storage.mergetree.read;

import dev.streamhouse.storage.mergetree.MergeFunction;
import dev.streamhouse.storage.mergetree.MergeFunctionFactory;
import dev.streamhouse.storage.options.MergeTreeOptions;
import dev.streamhouse.storage.options.MergeTreeOptions.MergeEngine;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.schema.TableSchema;

/**
 * The merge function of a table's {@code merge-engine}. Only {@code deduplicate} exists so far; the
 * other engines plug in here as further {@link MergeFunctionFactory}s.
 */
public final class MergeEngines {
    private MergeEngines() {}

    /**
     * The merge engine of {@code schema}'s options, honouring {@code ignore-delete}.
     *
     * @throws UnsupportedOperationException for engines not implemented yet (partial-update,
     *     aggregation, first-row)
     */
    public static MergeFunctionFactory create(TableSchema schema) {
        return create(schema.tableOptions());
    }

    /** Like {@link #create(TableSchema)} for table options. */
    public static MergeFunctionFactory create(Options tableOptions) {
        MergeEngine engine = tableOptions.get(MergeTreeOptions.MERGE_ENGINE);
        boolean ignoreDelete = tableOptions.get(MergeTreeOptions.IGNORE_DELETE);
        switch (engine) {
            case DEDUPLICATE:
                return deduplicate(ignoreDelete);
            default:
                throw new UnsupportedOperationException("Cannot merge versions of primary keys: option '"
                        + MergeTreeOptions.MERGE_ENGINE.key() + "' = '" + engine + "' is not supported yet; "
                        + "only 'deduplicate' is");
        }
    }

    /** The {@code deduplicate} engine: the last version wins (see {@link DeduplicateMergeFunction}). */
    public static MergeFunctionFactory deduplicate(boolean ignoreDelete) {
        return new MergeFunctionFactory() {
            private static final long serialVersionUID = 1L;

            @Override
            public MergeFunction create() {
                return new DeduplicateMergeFunction(ignoreDelete);
            }

            /** One version wins as it is, unless ignore-delete drops a lone retraction. */
            @Override
            public boolean keepsSingleVersion() {
                return !ignoreDelete;
            }
        };
    }
}
