package dev.streamhouse.storage.table.source;

import dev.streamhouse.storage.mergetree.MergeFunctionFactory;
import dev.streamhouse.storage.operation.FileStatsMapper;
import dev.streamhouse.storage.options.ChangelogOptions;
import dev.streamhouse.storage.options.MergeTreeOptions;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.predicate.Predicate;
import dev.streamhouse.storage.schema.SchemaCache;
import dev.streamhouse.storage.schema.TableSchema;

import java.util.function.IntPredicate;

/**
 * Which files and buckets a full plan of a table reads, as Apache Paimon 1.3 plans them: the levels of a
 * batch read and of the full snapshot a streaming read starts with, and the buckets that pruning by the
 * filter can leave out. Stateless.
 */
final class FullPlanFilters {
    private FullPlanFilters() {}

    /** Whether this is a primary-key table with {@code deletion-vectors.enabled}. */
    static boolean deletionVectorsEnabled(TableSchema schema) {
        return schema.hasPrimaryKey() && schema.tableOptions().get(MergeTreeOptions.DELETION_VECTORS_ENABLED);
    }

    /**
     * The levels a batch read of a primary-key table plans, or null for all: above level 0 for
     * deletion-vector tables and engines that do not read level 0 (first-row), as Paimon 1.3 does.
     */
    static IntPredicate batchLevels(TableSchema schema, MergeFunctionFactory engine) {
        return !engine.readsLevelZero() || deletionVectorsEnabled(schema) ? l -> l > 0 : null;
    }

    /**
     * The levels the full snapshot a streaming read starts with plans, or null for all, as Apache
     * Paimon 1.3's first streaming plan does: with {@code changelog-producer} = lookup only the files
     * above level 0 (the keys of level-0 files reach the reader with the changelog their compaction
     * writes), with full-compaction only the files on the last level ({@code num-levels} - 1, what the
     * last full compaction left), otherwise every level (above level 0 for engines that do not read it).
     * The changes read after it are planned without a level filter.
     */
    static IntPredicate streamingFirstPlanLevels(TableSchema schema, MergeFunctionFactory engine) {
        Options options = schema.tableOptions();
        switch (options.get(ChangelogOptions.CHANGELOG_PRODUCER)) {
            case LOOKUP:
                return l -> l > 0;
            case FULL_COMPACTION:
                int maxLevel = MergeTreeOptions.numLevels(options) - 1;
                return l -> l == maxLevel;
            default:
                return engine.readsLevelZero() ? null : l -> l > 0;
        }
    }

    /** Bucket pruning by the bucket-key literals of the filter ({@link BucketSelector}), or null. */
    static SnapshotTableScan.BucketFilter bucketKeyFilter(TableSchema schema, Predicate filter) {
        return BucketSelector.of(schema, filter)
                .<SnapshotTableScan.BucketFilter>map(selector ->
                        (bucket, totalBuckets, files) -> selector.selects(bucket, totalBuckets))
                .orElse(null);
    }

    /** Both filters (either may be null: then the other, or null for none). */
    static SnapshotTableScan.BucketFilter both(SnapshotTableScan.BucketFilter a, SnapshotTableScan.BucketFilter b) {
        if (a == null || b == null) {
            return a == null ? b : a;
        }
        return (bucket, totalBuckets, files) -> a.mayMatch(bucket, totalBuckets, files)
                && b.mayMatch(bucket, totalBuckets, files);
    }

    /**
     * Value-filter pruning for merge-on-read: when every visible row is one of the stored versions
     * ({@link MergeFunctionFactory#mergedRowIsStoredVersion}), a bucket in which no file may hold a
     * matching row contributes nothing. Single files are never dropped (an older version may match
     * while the newest does not). Null when it does not apply.
     */
    static SnapshotTableScan.BucketFilter wholeBucketFilter(TableSchema schema, SchemaCache schemas, Predicate filter,
            MergeFunctionFactory engine) {
        if (filter == null || !engine.mergedRowIsStoredVersion()) {
            return null;
        }
        FileStatsMapper stats = new FileStatsMapper(schema.rowType(), schemas);
        return (bucket, totalBuckets, files) -> files.stream().anyMatch(f -> stats.mayMatch(filter, f));
    }
}
