package dev.streamhouse.storage.table.sink;

import dev.streamhouse.storage.commit.CommitMessage;
import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.data.InternalRow;

import java.io.IOException;
import java.util.List;
import java.util.function.BiPredicate;

/**
 * Writes rows into data files. Not thread-safe. Files become part of the table only when the
 * messages of {@link #prepareCommit()} are committed; {@link #close()} without committing deletes the
 * files not yet handed out.
 */
public interface TableWrite extends AutoCloseable {

    /** Writes one row of the table's row type; its row kind must be +I for append tables. */
    void write(InternalRow row) throws IOException;

    /**
     * Writes one row into {@code bucket}, assigned upstream: for writes of dynamic-bucket tables made
     * with {@link WriteContext#withAssignedBuckets()}, which take rows only this way.
     *
     * @throws UnsupportedOperationException for other writes
     */
    default void write(InternalRow row, int bucket) throws IOException {
        throw new UnsupportedOperationException("This write of " + getClass().getSimpleName() + " assigns buckets"
                + " itself; write(row, bucket) is for dynamic-bucket writes with buckets assigned upstream");
    }

    /**
     * Compacts one bucket now. Primary-key tables: a full compaction rewrites it into one sorted run on
     * the last level; otherwise the compaction strategy decides. Append tables: small files are
     * merged (a fixed bucket keeps its row order). The result travels with the next
     * {@link #prepareCommit()}.
     */
    void compact(BinaryRow partition, int bucket, boolean fullCompaction) throws IOException;

    /**
     * For tables whose commits move level 0 up (first-row, {@code changelog-producer} = lookup,
     * {@code force-lookup}) or fully compact ({@code changelog-producer} = full-compaction): opens the
     * writers of the buckets that hold level-0 files in the latest
     * snapshot, so the next {@link #prepareCommit()} compacts them and produces their changelog even
     * if no new row arrives for them. A restarted job calls it once: level-0 files whose compaction
     * was lost in a failure (its COMPACT snapshot never landed) would otherwise wait for the next row
     * of their bucket. Only buckets this writer owns are opened: fixed buckets that
     * {@code ownsFixedBucket} accepts, dynamic buckets that the write's assigner owns (or, when buckets
     * are assigned upstream, that {@code ownsFixedBucket} accepts). Other tables do nothing.
     */
    default void resumeLevelZero(BiPredicate<BinaryRow, Integer> ownsFixedBucket) throws IOException {}

    /**
     * Finishes the current files and returns them as commit messages, one per (partition, bucket),
     * waiting for running compactions: {@code prepareCommit(true)}.
     */
    List<CommitMessage> prepareCommit() throws IOException;

    /**
     * Like {@link #prepareCommit()}; with {@code waitCompaction} false (a streaming writer's
     * checkpoint) a compaction still running in the background is left running and its result travels
     * with a later call, so the checkpoint barrier does not wait for it; streaming writers wait only at
     * the end of their input, as Apache Paimon's do. A table may still ask its commits to wait (e.g.
     * {@code commit.force-compact}).
     */
    default List<CommitMessage> prepareCommit(boolean waitCompaction) throws IOException {
        return prepareCommit();
    }

    /** Deletes files written since the last {@link #prepareCommit()} and releases resources. */
    /**
     * Records from now on what the write does into {@code stats} (open writers; for primary-key tables
     * also the write buffer, the LSM shape of each open bucket and the compactions), for an engine's
     * metrics. Call it again on a write that continues another.
     */
    void reportTo(dev.streamhouse.storage.metrics.WriterStats stats);

    @Override
    void close();
}
