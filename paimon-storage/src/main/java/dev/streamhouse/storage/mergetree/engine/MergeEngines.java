package dev.streamhouse.storage.mergetree.engine;

import dev.streamhouse.storage.mergetree.MergeFunction;
import dev.streamhouse.storage.mergetree.MergeFunctionFactory;
import dev.streamhouse.storage.options.ChangelogOptions;
import dev.streamhouse.storage.options.ChangelogOptions.ChangelogProducer;
import dev.streamhouse.storage.options.LookupOptions;
import dev.streamhouse.storage.options.MergeTreeOptions;
import dev.streamhouse.storage.options.MergeTreeOptions.MergeEngine;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.schema.TableSchema;
import dev.streamhouse.storage.types.RowType;

import java.util.List;
import java.util.Optional;

/**
 * The merge engine ({@link MergeFunctionFactory}) of a table's {@code merge-engine}: deduplicate,
 * partial-update, aggregation or first-row, each declaring its capabilities in its factory; for tables
 * Apache Paimon compacts with lookups wrapped in {@link LookupMerge}.
 */
public final class MergeEngines {
    private MergeEngines() {}

    /**
     * The merge engine of {@code schema}.
     *
     * @throws IllegalArgumentException if the engine's options are invalid for the table (a sequence
     *     group naming a missing column, an aggregate function that does not take its column's type, ...)
     * @throws UnsupportedOperationException for a {@code changelog-producer} the engine does not support
     */
    public static MergeFunctionFactory create(TableSchema schema) {
        return create(schema.rowType(), schema.primaryKeys(), schema.tableOptions());
    }

    /** Like {@link #create(TableSchema)} for a table's row type, primary key and options. */
    public static MergeFunctionFactory create(RowType rowType, List<String> primaryKeys, Options tableOptions) {
        MergeEngine engine = tableOptions.get(MergeTreeOptions.MERGE_ENGINE);
        boolean ignoreDelete = tableOptions.get(MergeTreeOptions.IGNORE_DELETE);
        MergeFunctionFactory factory;
        switch (engine) {
            case DEDUPLICATE:
                factory = deduplicate(ignoreDelete);
                break;
            case PARTIAL_UPDATE:
                factory = new PartialUpdateEngine(rowType, primaryKeys, tableOptions);
                break;
            case AGGREGATION:
                factory = new AggregationEngine(rowType, primaryKeys, tableOptions);
                break;
            case FIRST_ROW:
                factory = new FirstRowEngine(ignoreDelete);
                break;
            default:
                throw new IllegalStateException("Unknown merge engine " + engine);
        }
        ChangelogProducer producer = tableOptions.get(ChangelogOptions.CHANGELOG_PRODUCER);
        if (!factory.supportsChangelogProducer(producer)) {
            throw new UnsupportedOperationException("Cannot use option '" + ChangelogOptions.CHANGELOG_PRODUCER.key()
                    + "' = '" + producer + "' with option '" + MergeTreeOptions.MERGE_ENGINE.key() + "' = '"
                    + engine + "': the merge engine does not support it");
        }
        boolean lookupCompaction = compactsWithLookup(producer, tableOptions.get(LookupOptions.FORCE_LOOKUP),
                tableOptions.get(MergeTreeOptions.DELETION_VECTORS_ENABLED));
        // First-row's levels never share a key (its compaction drops the later versions), so Paimon does
        // not wrap it.
        return lookupCompaction && engine != MergeEngine.FIRST_ROW ? new LookupMerge(factory) : factory;
    }

    /**
     * Whether Apache Paimon compacts the table with lookups, so that the version of a key on the smallest
     * level above 0 holds its deeper versions merged (Paimon's {@code CoreOptions.needLookup()}, less
     * first-row, which is checked by the caller).
     */
    private static boolean compactsWithLookup(ChangelogProducer producer, boolean forceLookup,
            boolean deletionVectors) {
        return producer == ChangelogProducer.LOOKUP || forceLookup || deletionVectors;
    }

    /**
     * Checks that a new or altered primary-key table's merge engine can be built from its options, so
     * a mistake is refused before anything is written.
     *
     * @throws IllegalArgumentException naming the table and the problem
     */
    public static void validate(TableSchema schema, String table) {
        if (schema.primaryKeys().isEmpty()) {
            return;
        }
        try {
            create(schema);
        } catch (IllegalArgumentException | UnsupportedOperationException e) {
            // Not chained: tools show the root cause, and this message names the table as well.
            throw new IllegalArgumentException("Cannot use merge engine '"
                    + schema.tableOptions().get(MergeTreeOptions.MERGE_ENGINE) + "' for table " + table + ": "
                    + e.getMessage());
        }
    }

    /**
     * Why a streaming read of {@code schema}'s table cannot give a correct changelog, if it cannot: the
     * partial-update, aggregation and first-row engines need a changelog producer. (Which producers'
     * changelog can be read at all is {@code TableFeatureCheck}'s question.)
     */
    public static Optional<String> streamingReadRefusal(TableSchema schema) {
        MergeEngine engine = schema.tableOptions().get(MergeTreeOptions.MERGE_ENGINE);
        if (!schema.hasPrimaryKey() || engine == MergeEngine.DEDUPLICATE
                || schema.tableOptions().get(ChangelogOptions.CHANGELOG_PRODUCER) != ChangelogProducer.NONE) {
            return Optional.empty();
        }
        return Optional.of("a streaming read of merge engine '" + engine + "' with 'changelog-producer' = 'none' "
                + "cannot tell what changed; use 'changelog-producer' = 'lookup' or 'full-compaction' (the merged "
                + "changes) or 'input' (the input records only), or read the table in batch mode "
                + "(SET 'execution.runtime-mode' = 'batch')");
    }

    /** The {@code deduplicate} engine: the last version wins (see {@link DeduplicateMergeFunction}). */
    public static MergeFunctionFactory deduplicate(boolean ignoreDelete) {
        return new Deduplicate(ignoreDelete);
    }

    /** Deduplicate's capabilities: it takes one version whole, so projection and value filters pass through. */
    private record Deduplicate(boolean ignoreDelete) implements MergeFunctionFactory {
        @Override
        public MergeFunction create() {
            // Without ignore-delete a lone version wins anyway; with it, a lone retraction stays one.
            DeduplicateMergeFunction merge = new DeduplicateMergeFunction(ignoreDelete);
            return ignoreDelete ? new SingleVersionAsIs(merge) : merge;
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
