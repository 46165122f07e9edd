package dev.streamhouse.storage.table.source;

import dev.streamhouse.storage.snapshot.ExpiredSnapshotException;

/**
 * Plans a streaming read: where to start ({@code scan.mode}, or the saved progress of
 * {@code consumer-id}), then one snapshot after another. Read the splits with the {@link TableRead} of
 * the same {@link ReadBuilder}.
 *
 * <p>Each {@link #plan()} consumes at most one snapshot:
 * <ul>
 *   <li>the first plan of a mode that starts with a full snapshot returns that snapshot's live files
 *       as full splits (merged, all rows inserts), e.g. {@code latest-full};</li>
 *   <li>every other plan returns the changes of the next snapshot as delta splits
 *       ({@link DataSplit#delta()}), one per (partition, bucket) it changed, or no splits when that
 *       snapshot is skipped (compactions, overwrites, statistics) or changed nothing wanted;</li>
 *   <li>when the next snapshot does not exist yet, {@link TableScan.Plan#snapshotId()} is null and
 *       nothing was consumed: plan again later.</li>
 * </ul>
 * A snapshot's splits must be read before the next snapshot's splits of the same (partition, bucket)
 * for the changes of each key to stay in order.
 *
 * <p>Progress: {@link #checkpoint()} is the next snapshot to read; {@link #restore} resumes there.
 * With option {@code consumer-id} the engine also records, once a checkpoint made it durable, the
 * consumer's next snapshot with {@link #recordConsumerProgress}; a later read with the same id starts
 * there. Not thread-safe: use from one thread at a time.
 */
public interface StreamTableScan {

    /**
     * Plans the next batch of splits.
     *
     * @throws ExpiredSnapshotException if the next snapshot to read was already expired
     * @throws java.io.UncheckedIOException if the table's metadata cannot be read (retrying may help)
     */
    TableScan.Plan plan();

    /**
     * The id of the next snapshot whose changes {@link #plan()} returns; null before the starting point
     * was decided (no plan yet, or the table had no snapshot to start from).
     */
    Long checkpoint();

    /**
     * Resumes reading the changes at snapshot {@code nextSnapshotId} (a value of {@link #checkpoint()})
     * instead of where {@code scan.mode} / {@code consumer-id} would start; null starts afresh.
     */
    void restore(Long nextSnapshotId);

    /** The {@code consumer-id} of this read, if it has one. */
    java.util.Optional<String> consumerId();

    /**
     * Saves that the consumer of this read ({@link #consumerId()}) reads snapshot
     * {@code nextSnapshotId} next; call it only once everything before that snapshot was durably
     * consumed (e.g. when the engine's checkpoint completed).
     *
     * @throws IllegalStateException if this read has no consumer id
     * @throws java.io.IOException if the consumer file cannot be written (retrying later may help)
     */
    void recordConsumerProgress(long nextSnapshotId) throws java.io.IOException;
}
