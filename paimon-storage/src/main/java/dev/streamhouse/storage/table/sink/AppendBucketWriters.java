package dev.streamhouse.storage.table.sink;

import dev.streamhouse.storage.append.AppendBucketWriter;
import dev.streamhouse.storage.append.AppendCompactManager;
import dev.streamhouse.storage.append.AppendCompactPlanner;
import dev.streamhouse.storage.append.AppendCompactor;
import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.io.AppendFileWriter;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.manifest.FileSource;
import dev.streamhouse.storage.manifest.ManifestEntry;
import dev.streamhouse.storage.manifest.PartitionBucket;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The bucket writers of one write to a fixed-bucket append table ({@link AppendBucketWriter}), kept for
 * the life of the write, and the one compaction thread they share. A bucket's writer starts from the
 * bucket's live files in the snapshot the state loader reads (each partition read once): they are its
 * first compaction candidates, and its rows are numbered on from their largest sequence number.
 */
final class AppendBucketWriters implements AutoCloseable {
    /** Creates the writers of a bucket's files. */
    interface FileWriters {
        AppendFileWriter create(BinaryRow partition, int bucket, long firstSequenceNumber, FileSource source);

        /** Deletes files of the bucket quietly. */
        void delete(BinaryRow partition, int bucket, List<DataFileMeta> files);
    }

    /** How the bucket writers compact: the table's options, as plain values. */
    record Settings(long targetFileSize, AppendCompactPlanner planner, boolean autoCompact, boolean waitAtCommit) {}

    private final String tableName;
    private final BucketStateLoader state;
    private final FileWriters files;
    private final AppendCompactor.FileRows rows;
    private final Settings settings;
    private final Map<PartitionBucket, AppendBucketWriter> writers = new LinkedHashMap<>();
    private final Map<BinaryRow, List<ManifestEntry>> restored = new HashMap<>();
    private ExecutorService executor;

    AppendBucketWriters(String tableName, BucketStateLoader state, FileWriters files, AppendCompactor.FileRows rows,
            Settings settings) {
        this.tableName = tableName;
        this.state = state;
        this.files = files;
        this.rows = rows;
        this.settings = settings;
    }

    Map<PartitionBucket, AppendBucketWriter> all() {
        return writers;
    }

    AppendBucketWriter writer(BinaryRow partition, int bucket) throws IOException {
        PartitionBucket key = new PartitionBucket(partition, bucket);
        AppendBucketWriter writer = writers.get(key);
        if (writer == null) {
            BinaryRow p = partition.copy();
            writer = create(p, bucket);
            writers.put(new PartitionBucket(p, bucket), writer);
        }
        return writer;
    }

    private AppendBucketWriter create(BinaryRow partition, int bucket) throws IOException {
        List<ManifestEntry> partitionFiles = restored.get(partition);
        if (partitionFiles == null) {
            partitionFiles = state.liveFiles(partition);
            restored.put(partition, partitionFiles);
        }
        List<DataFileMeta> live = new ArrayList<>();
        long nextSequence = 0;
        for (ManifestEntry e : partitionFiles) {
            if (e.bucket() == bucket) {
                live.add(e.file());
                nextSequence = Math.max(nextSequence, e.file().maxSequenceNumber() + 1);
            }
        }
        AppendCompactor rewrites = new AppendCompactor(settings.planner(), rows, new AppendCompactor.RewriteWriters() {
            @Override
            public AppendFileWriter create(BinaryRow p, int b, long firstSequenceNumber) {
                return files.create(p, b, firstSequenceNumber, FileSource.COMPACT);
            }

            @Override
            public void discard(BinaryRow p, int b, List<DataFileMeta> written) {
                files.delete(p, b, written);
            }
        }, true);
        AppendCompactManager compactions = new AppendCompactManager(executor(), settings.planner(),
                settings.targetFileSize(), new AppendCompactManager.Rewriter() {
                    @Override
                    public List<DataFileMeta> rewrite(List<DataFileMeta> group) throws IOException {
                        return rewrites.rewrite(partition, bucket, group);
                    }

                    @Override
                    public void discard(List<DataFileMeta> written) {
                        files.delete(partition, bucket, written);
                    }
                }, live);
        return new AppendBucketWriter(seq -> files.create(partition, bucket, seq, FileSource.APPEND), nextSequence,
                compactions, settings.autoCompact(), settings.waitAtCommit(),
                written -> files.delete(partition, bucket, written));
    }

    private ExecutorService executor() {
        if (executor == null) {
            executor = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "append-compaction-" + tableName);
                t.setDaemon(true);
                return t;
            });
        }
        return executor;
    }

    @Override
    public void close() {
        for (AppendBucketWriter w : writers.values()) {
            w.close();
        }
        writers.clear();
        if (executor != null) {
            executor.shutdownNow();
            try {
                // A cancelled rewrite deletes its own output; let it finish that before the write is gone.
                executor.awaitTermination(30, java.util.concurrent.TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            executor = null;
        }
    }
}
