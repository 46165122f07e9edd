package dev.streamhouse.storage.table.source;

import dev.streamhouse.storage.deletionvectors.DeletionFile;
import dev.streamhouse.storage.deletionvectors.SnapshotDeletionFiles;
import dev.streamhouse.storage.manifest.PartitionBucket;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.manifest.ManifestEntry;
import dev.streamhouse.storage.mergetree.read.KeyFilterPruner;
import dev.streamhouse.storage.operation.FileStoreScan;
import dev.streamhouse.storage.snapshot.Snapshot;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Plans a read of one snapshot's live files into full splits: one per (partition, bucket), or, with a
 * {@link SplitPacking} (append tables), the bucket's files packed in order into splits of about the
 * target size, so that a bucket of several large files is read by several tasks. The batch read, and
 * the first plan of streaming reads that start with a full snapshot.
 *
 * <p>For tables with deletion vectors, each split carries the {@link DeletionFile}s of its files
 * ({@link DataSplit#deletionFiles()}), from the snapshot's index manifest, which is read once per plan.
 */
final class SnapshotTableScan implements TableScan {
    /** Decides per split whether its files can be read without merging. */
    @FunctionalInterface
    interface RawReadPolicy {
        boolean rawConvertible(List<DataFileMeta> files);
    }

    /** Decides whether a whole bucket can be skipped; see {@link ReadBuilder}. */
    @FunctionalInterface
    interface BucketFilter {
        /**
         * @param totalBuckets the bucket count the bucket's partition was written with (-1: dynamic)
         * @param files all live files of the bucket
         */
        boolean mayMatch(int bucket, int totalBuckets, List<DataFileMeta> files);
    }

    /**
     * How the files of one bucket are packed into splits, as Paimon's {@code source.split.target-size}
     * and {@code source.split.open-file-cost}: in sequence-number order (a bucket's row order, which
     * manifest order is not once a compaction rewrote older files), each file weighing its size but at
     * least the open cost, a split closed before the file that would take it past the target (a split
     * has at least one file).
     */
    record SplitPacking(long targetSize, long openFileCost) {
        List<List<DataFileMeta>> pack(List<DataFileMeta> unordered) {
            List<DataFileMeta> files = new ArrayList<>(unordered);
            files.sort(Comparator.comparingLong(DataFileMeta::minSequenceNumber)
                    .thenComparingLong(DataFileMeta::maxSequenceNumber));
            List<List<DataFileMeta>> splits = new ArrayList<>();
            List<DataFileMeta> current = new ArrayList<>();
            long weight = 0;
            for (DataFileMeta f : files) {
                long w = Math.max(f.fileSize(), openFileCost);
                if (!current.isEmpty() && weight + w > targetSize) {
                    splits.add(current);
                    current = new ArrayList<>();
                    weight = 0;
                }
                current.add(f);
                weight += w;
            }
            if (!current.isEmpty()) {
                splits.add(current);
            }
            return splits;
        }
    }

    private final FileStoreScan scan;
    private final RawReadPolicy rawReadPolicy;
    private final KeyFilterPruner keyPruner;
    private final BucketFilter bucketFilter;
    private final String tableName;
    private final SplitPacking packing;
    private final SnapshotDeletionFiles.Loader deletionFiles;

    /**
     * @param packingOrNull packs a bucket's files into several splits; null for one split per bucket
     * @param deletionFilesOrNull where the deletion vectors of a snapshot are, for tables with
     *     {@code deletion-vectors.enabled}; null for other tables
     */
    SnapshotTableScan(FileStoreScan scan, RawReadPolicy rawReadPolicy, KeyFilterPruner keyPrunerOrNull,
            BucketFilter bucketFilterOrNull, SplitPacking packingOrNull,
            SnapshotDeletionFiles.Loader deletionFilesOrNull, String tableName) {
        this.scan = scan;
        this.deletionFiles = deletionFilesOrNull;
        this.packing = packingOrNull;
        this.rawReadPolicy = rawReadPolicy;
        this.keyPruner = keyPrunerOrNull;
        this.bucketFilter = bucketFilterOrNull;
        this.tableName = tableName;
    }

    @Override
    public Plan plan() {
        FileStoreScan.Plan plan;
        try {
            plan = scan.plan();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot plan a scan of table " + tableName + ": " + e.getMessage(), e);
        }
        if (plan.snapshot().isEmpty()) {
            return new Plan(null, List.of());
        }
        Snapshot snapshot = plan.snapshot().get();
        long snapshotId = snapshot.id();
        SnapshotDeletionFiles vectors = null;
        if (deletionFiles != null) {
            try {
                vectors = deletionFiles.of(snapshot);
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot plan a scan of table " + tableName + ": " + e.getMessage(), e);
            }
        }
        Map<PartitionBucket, List<DataFileMeta>> grouped = new LinkedHashMap<>();
        Map<PartitionBucket, Integer> totalBuckets = new LinkedHashMap<>();
        for (ManifestEntry e : plan.files()) {
            PartitionBucket k = new PartitionBucket(e.partition(), e.bucket());
            grouped.computeIfAbsent(k, x -> new ArrayList<>()).add(e.file());
            totalBuckets.putIfAbsent(k, e.totalBuckets());
        }
        List<DataSplit> splits = new ArrayList<>();
        for (Map.Entry<PartitionBucket, List<DataFileMeta>> g : grouped.entrySet()) {
            PartitionBucket k = g.getKey();
            if (bucketFilter != null && !bucketFilter.mayMatch(k.bucket(), totalBuckets.get(k), g.getValue())) {
                continue;
            }
            // Merging must see every file of the bucket, so decide raw reads before key pruning.
            boolean raw = rawReadPolicy.rawConvertible(g.getValue());
            List<DataFileMeta> files = keyPruner == null ? g.getValue() : keyPruner.prune(g.getValue());
            if (files.isEmpty()) {
                continue;
            }
            for (List<DataFileMeta> part : packing == null ? List.of(files) : packing.pack(files)) {
                List<DeletionFile> deletion = vectors == null ? null
                        : vectors.forFiles(k.partition(), k.bucket(), part);
                splits.add(new DataSplit(snapshotId, k.partition(), k.bucket(), totalBuckets.get(k), part, raw, false,
                        deletion));
            }
        }
        return new Plan(snapshotId, splits);
    }
}
