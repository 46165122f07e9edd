package dev.streamhouse.storage.maintenance.optimize;

import dev.streamhouse.storage.table.sink.CompactionBuckets;

import java.util.List;

/**
 * Compacts chosen buckets of a table and commits the result as one snapshot: the seam between
 * {@link TableOptimizer}'s planning and whatever runs the compaction (this JVM, or an engine's batch
 * job).
 *
 * <p>Contract: either the compaction is committed, or nothing is and the files it wrote are deleted
 * before the call returns or throws. A commit that conflicts with a concurrent one throws an
 * exception whose cause chain holds the storage's commit-conflict exception (by class, or by class
 * name when an engine serialized it); {@link TableOptimizer} then plans again and retries.
 */
public interface BucketCompaction {

    /**
     * Compacts {@code buckets} (non-empty), fully or by the table's compaction strategy, and returns
     * what was committed, e.g. {@code Compacted 2 of 3 buckets into snapshot 7}.
     */
    String compact(List<CompactionBuckets.Bucket> buckets, boolean fullCompaction) throws Exception;
}
