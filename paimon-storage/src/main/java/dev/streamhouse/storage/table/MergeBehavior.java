package dev.streamhouse.storage.table;

import dev.streamhouse.storage.mergetree.MergeFunctionFactory;
import dev.streamhouse.storage.mergetree.engine.MergeEngines;
import dev.streamhouse.storage.options.ChangelogOptions;
import dev.streamhouse.storage.options.ChangelogOptions.ChangelogProducer;
import dev.streamhouse.storage.options.MergeEngineOptions;
import dev.streamhouse.storage.options.MergeTreeOptions;
import dev.streamhouse.storage.options.MergeTreeOptions.MergeEngine;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.schema.TableSchema;

import java.util.Optional;

/**
 * What a table's merge engine means for the engines that write and read it, as Apache Paimon 1.3
 * decides it: which row kinds a sink passes on, which row-level statements and streaming reads work.
 * Append tables behave as the deduplicate engine would, where that question applies at all.
 */
public final class MergeBehavior {
    private final TableSchema schema;
    private final MergeEngine engine;
    private final MergeFunctionFactory factory;

    private MergeBehavior(TableSchema schema) {
        this.schema = schema;
        this.engine = schema.tableOptions().get(MergeTreeOptions.MERGE_ENGINE);
        this.factory = schema.hasPrimaryKey() ? MergeEngines.create(schema) : MergeEngines.deduplicate(false);
    }

    /** The behaviour of {@code schema}'s table (with any dynamic options already applied). */
    public static MergeBehavior of(TableSchema schema) {
        return new MergeBehavior(schema);
    }

    /**
     * Whether a sink passes on the -U rows of updates: with {@code changelog-producer} = input (they are
     * the changelog) and for engines that retract old values (aggregation, partial-update with
     * aggregate functions); otherwise +U alone replaces the row.
     */
    public boolean keepsUpdateBefore() {
        return schema.tableOptions().get(ChangelogOptions.CHANGELOG_PRODUCER) == ChangelogProducer.INPUT
                || factory.retractsUpdateBefore();
    }

    /** Whether every change a streaming read emits is an insert (first-row: a key's first row never changes). */
    public boolean changelogIsInsertOnly() {
        return schema.hasPrimaryKey() && engine == MergeEngine.FIRST_ROW;
    }

    /** Why a batch {@code UPDATE} cannot run on this primary-key table, if it cannot. */
    public Optional<String> refusesBatchUpdate() {
        if (engine == MergeEngine.DEDUPLICATE || engine == MergeEngine.PARTIAL_UPDATE) {
            return Optional.empty();
        }
        return Optional.of("merge engine '" + engine + "' cannot apply a batch UPDATE; only 'deduplicate' and "
                + "'partial-update' can");
    }

    /** Why a batch {@code DELETE} cannot run on this primary-key table, if it cannot. */
    public Optional<String> refusesBatchDelete() {
        Options options = schema.tableOptions();
        switch (engine) {
            case DEDUPLICATE:
                return Optional.empty();
            case PARTIAL_UPDATE:
                if (options.get(MergeEngineOptions.PARTIAL_UPDATE_REMOVE_RECORD_ON_DELETE)
                        || options.get(MergeEngineOptions.PARTIAL_UPDATE_REMOVE_RECORD_ON_SEQUENCE_GROUP) != null) {
                    return Optional.empty();
                }
                return Optional.of("merge engine 'partial-update' does not delete rows by default; set '"
                        + MergeEngineOptions.PARTIAL_UPDATE_REMOVE_RECORD_ON_DELETE.key() + "' = 'true' (without "
                        + "sequence groups) or '" + MergeEngineOptions.PARTIAL_UPDATE_REMOVE_RECORD_ON_SEQUENCE_GROUP.key()
                        + "'");
            case AGGREGATION:
                if (options.get(MergeEngineOptions.AGGREGATION_REMOVE_RECORD_ON_DELETE)) {
                    return Optional.empty();
                }
                return Optional.of("merge engine 'aggregation' does not delete rows by default; set '"
                        + MergeEngineOptions.AGGREGATION_REMOVE_RECORD_ON_DELETE.key() + "' = 'true'");
            case FIRST_ROW:
            default:
                return Optional.of("merge engine '" + engine + "' cannot apply a batch DELETE");
        }
    }

    /**
     * Why a streaming read of this table cannot give a correct changelog, if it cannot: the
     * partial-update, aggregation and first-row engines need a changelog producer ('input' only
     * returns the input records; 'lookup' and 'full-compaction' give the merged changelog).
     */
    public Optional<String> refusesStreamingRead() {
        return MergeEngines.streamingReadRefusal(schema);
    }
}
