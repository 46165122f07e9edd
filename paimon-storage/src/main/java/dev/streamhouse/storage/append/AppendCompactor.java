package dev.streamhouse.storage.append;

import dev.streamhouse.storage.commit.CompactIncrement;
import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.io.AppendFileWriter;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.reader.RecordIterator;
import dev.streamhouse.storage.reader.RecordReader;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Compacts one bucket of an append table: picks files by {@link AppendCompactPlanner}'s rules and
 * rewrites each group into new files (rolling at the target size, {@code _FILE_SOURCE} COMPACT), rows
 * in the order of the group, sequence numbers continuing from the group's first file. The result is a
 * {@link CompactIncrement} for the next commit; nothing is visible before that commit, and a failed
 * rewrite deletes what it wrote.
 *
 * <p>A fixed-bucket table's files are taken in sequence-number order and only consecutive files are
 * rewritten together, so the bucket keeps its row order. A bucket-unaware table's partition is packed
 * without regard to order; its full compaction rewrites every file below 70 % of the target size
 * (if there are at least two), where Apache Paimon's coordinator waits for enough of them.
 */
public final class AppendCompactor {
    /** Reads the rows of files of one bucket, one file after another in the given order. */
    @FunctionalInterface
    public interface FileRows {
        RecordReader<InternalRow> read(BinaryRow partition, int bucket, List<DataFileMeta> files) throws IOException;
    }

    /** Writers for the rewritten rows of a bucket, and the removal of files they wrote. */
    public interface RewriteWriters {
        AppendFileWriter create(BinaryRow partition, int bucket, long firstSequenceNumber);

        /** Deletes files a writer of the bucket finished; quietly, as a cleanup. */
        void discard(BinaryRow partition, int bucket, List<DataFileMeta> files);
    }

    private final AppendCompactPlanner planner;
    private final FileRows rows;
    private final RewriteWriters writers;
    private final boolean bucketed;

    /** @param bucketed whether the table has fixed buckets (false: {@code bucket} = -1) */
    public AppendCompactor(AppendCompactPlanner planner, FileRows rows, RewriteWriters writers, boolean bucketed) {
        this.planner = planner;
        this.rows = rows;
        this.writers = writers;
        this.bucketed = bucketed;
    }

    /** What compacting the bucket with these live files changes; {@link CompactIncrement#EMPTY} if nothing. */
    public CompactIncrement compact(BinaryRow partition, int bucket, List<DataFileMeta> live, boolean full)
            throws IOException {
        List<List<DataFileMeta>> groups = groups(live, full);
        if (groups.isEmpty()) {
            return CompactIncrement.EMPTY;
        }
        List<DataFileMeta> before = new ArrayList<>();
        List<DataFileMeta> after = new ArrayList<>();
        try {
            for (List<DataFileMeta> group : groups) {
                after.addAll(rewrite(partition, bucket, group));
                before.addAll(group);
            }
        } catch (IOException | RuntimeException e) {
            writers.discard(partition, bucket, after);
            throw e;
        }
        return new CompactIncrement(before, after, List.of());
    }

    /**
     * Rewrites {@code group} into new files ({@code _FILE_SOURCE} COMPACT, rolling at the target size):
     * its rows in the order of the group, numbered on from the first file's smallest sequence number.
     * If anything fails, the files written so far are deleted.
     */
    public List<DataFileMeta> rewrite(BinaryRow partition, int bucket, List<DataFileMeta> group) throws IOException {
        if (group.isEmpty()) {
            return List.of();
        }
        AppendFileWriter writer = writers.create(partition, bucket, group.get(0).minSequenceNumber());
        try {
            copy(partition, bucket, group, writer);
            return writer.prepareCommit();
        } catch (IOException | RuntimeException e) {
            writer.abort();
            throw e;
        }
    }

    private List<List<DataFileMeta>> groups(List<DataFileMeta> live, boolean full) {
        List<DataFileMeta> files = new ArrayList<>(live);
        if (bucketed) {
            files.sort(Comparator.comparingLong(DataFileMeta::minSequenceNumber));
            List<DataFileMeta> group = full ? planner.fullBucket(files) : planner.minorBucket(files);
            return group.isEmpty() ? List.of() : List.of(group);
        }
        if (!full) {
            return planner.packUnaware(files);
        }
        List<DataFileMeta> small = planner.smallUnawareFiles(files);
        return small.size() < 2 ? List.of() : List.of(small);
    }

    private void copy(BinaryRow partition, int bucket, List<DataFileMeta> group, AppendFileWriter writer)
            throws IOException {
        long expected = 0;
        for (DataFileMeta f : group) {
            expected += f.rowCount();
        }
        long copied = 0;
        try (RecordReader<InternalRow> reader = rows.read(partition, bucket, group)) {
            RecordIterator<InternalRow> batch;
            while ((batch = reader.readBatch()) != null) {
                InternalRow row;
                while ((row = batch.next()) != null) {
                    writer.write(row);
                    copied++;
                }
                if (Thread.currentThread().isInterrupted()) {
                    throw new java.io.InterruptedIOException("Compaction of files " + names(group) + " cancelled");
                }
                batch.releaseBatch();
            }
        }
        if (copied != expected) {
            throw new IOException("Cannot compact files " + names(group) + ": they hold " + expected
                    + " rows by their metadata but " + copied + " were read");
        }
    }

    private static List<String> names(List<DataFileMeta> files) {
        List<String> out = new ArrayList<>();
        for (DataFileMeta f : files) {
            out.add(f.fileName());
        }
        return out;
    }
}
