package dev.streamhouse.storage.table.sink;

import dev.streamhouse.storage.commit.CommitMessage;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.table.Table;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Compacts the buckets of a table now and commits the result as one COMPACT snapshot: what
 * {@code CALL sys.compact} does. For a primary-key table a full compaction leaves every bucket one
 * sorted run on the last level without retractions, and a minor one lets the table's compaction
 * strategy pick; for an append table both merge small files ({@link AppendTableWrite#compact}).
 *
 * <p>The buckets are those live in the latest snapshot (optionally only in some partitions;
 * {@link CompactionBuckets}), split
 * over {@code parallelism} writers that compact at the same time. Nothing is committed if no bucket
 * changed. A commit that conflicts (a concurrent job compacted or overwrote the same bucket) fails with
 * the storage's conflict error and its new files are deleted; the table is unchanged.
 *
 * <p>This runs in the calling JVM; {@code CALL sys.compact} runs the same steps as a Flink job.
 */
public final class TableCompactor {
    private final FileStoreTable table;
    private List<Map<String, String>> partitions = List.of();
    private List<CompactionBuckets.Bucket> buckets;
    private boolean fullCompaction = true;
    private int parallelism = 1;

    /**
     * A compactor of {@code table}.
     *
     * @throws UnsupportedOperationException if the table is not stored in the Paimon format
     */
    public static TableCompactor forTable(Table table) {
        if (!(table instanceof FileStoreTable)) {
            throw new UnsupportedOperationException("Cannot compact table " + table.fullName()
                    + ": it is not a table stored in the Paimon format");
        }
        return new TableCompactor((FileStoreTable) table);
    }

    public TableCompactor(FileStoreTable table) {
        this.table = table;
    }

    /** Only these partitions (each a spec, any of which may match); empty for all. */
    public TableCompactor withPartitions(List<Map<String, String>> partitions) {
        this.partitions = List.copyOf(partitions);
        return this;
    }

    /**
     * Only these buckets (of the live ones in the chosen partitions); a bucket without live files is
     * skipped. Without this call, every live bucket.
     */
    public TableCompactor withBuckets(List<CompactionBuckets.Bucket> buckets) {
        this.buckets = List.copyOf(buckets);
        return this;
    }

    /** Full (default) or minor compaction. */
    public TableCompactor withFullCompaction(boolean fullCompaction) {
        this.fullCompaction = fullCompaction;
        return this;
    }

    /** How many buckets are compacted at the same time (default 1). */
    public TableCompactor withParallelism(int parallelism) {
        if (parallelism < 1) {
            throw new IllegalArgumentException("Cannot compact table " + table.fullName()
                    + ": parallelism must be at least 1 but is " + parallelism);
        }
        this.parallelism = parallelism;
        return this;
    }

    /** What a compaction did: the buckets it looked at and the snapshot it committed, if any. */
    public record Result(int buckets, int changedBuckets, Optional<Long> snapshotId) {}

    public Result compact() throws IOException {
        List<CompactionBuckets.Bucket> buckets = CompactionBuckets.live(table, partitions);
        if (this.buckets != null) {
            buckets.retainAll(this.buckets);
        }
        if (buckets.isEmpty()) {
            return new Result(0, 0, Optional.empty());
        }
        List<CommitMessage> messages = compactAll(buckets);
        if (messages.isEmpty()) {
            return new Result(buckets.size(), 0, Optional.empty());
        }
        try (BatchTableCommit commit = table.newBatchCommit()) {
            try {
                commit.commit(messages);
            } catch (RuntimeException e) {
                commit.abort(messages);
                throw e;
            }
        }
        return new Result(buckets.size(), messages.size(),
                table.snapshotManager().latestSnapshot().map(Snapshot::id));
    }

    /** Compacts the buckets with up to {@code parallelism} writers; all their messages, or nothing. */
    private List<CommitMessage> compactAll(List<CompactionBuckets.Bucket> buckets) throws IOException {
        int writers = Math.min(parallelism, buckets.size());
        List<List<CompactionBuckets.Bucket>> shares = new ArrayList<>();
        for (int i = 0; i < writers; i++) {
            shares.add(new ArrayList<>());
        }
        for (int i = 0; i < buckets.size(); i++) {
            shares.get(i % writers).add(buckets.get(i));
        }
        ExecutorService pool = Executors.newFixedThreadPool(writers, r -> {
            Thread t = new Thread(r, "compact-" + table.fullName());
            t.setDaemon(true);
            return t;
        });
        List<Future<List<CommitMessage>>> futures = new ArrayList<>();
        try {
            for (List<CompactionBuckets.Bucket> share : shares) {
                futures.add(pool.submit(() -> compactShare(share)));
            }
            List<CommitMessage> out = new ArrayList<>();
            Throwable failure = null;
            for (Future<List<CommitMessage>> f : futures) {
                try {
                    out.addAll(f.get());
                } catch (ExecutionException e) {
                    failure = failure == null ? e.getCause() : failure;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    failure = failure == null ? e : failure;
                }
            }
            if (failure != null) {
                try (BatchTableCommit cleanup = table.newBatchCommit()) {
                    cleanup.abort(out);
                }
                if (failure instanceof IOException io) {
                    throw io;
                }
                if (failure instanceof UncheckedIOException unchecked) {
                    throw unchecked.getCause();
                }
                if (failure instanceof RuntimeException re) {
                    throw re;
                }
                throw new IOException("Cannot compact table " + table.fullName() + ": " + failure, failure);
            }
            return out;
        } finally {
            pool.shutdownNow();
        }
    }

    private List<CommitMessage> compactShare(List<CompactionBuckets.Bucket> share) throws IOException {
        TableWrite write = table.newWrite();
        try {
            for (CompactionBuckets.Bucket pb : share) {
                write.compact(pb.partition(), pb.bucket(), fullCompaction);
            }
            return write.prepareCommit();
        } finally {
            write.close();
        }
    }
}
