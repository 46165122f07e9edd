package dev.streamhouse.storage.table.source;

import dev.streamhouse.storage.manifest.PartitionBucket;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.manifest.ManifestEntry;
import dev.streamhouse.storage.mergetree.read.KeyFilterPruner;
import dev.streamhouse.storage.operation.FileStoreScan;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Plans a read of one snapshot's live files into full splits, one per (partition, bucket): the batch
 * read, and the first plan of streaming reads that start with a full snapshot.
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

    private final FileStoreScan scan;
    private final RawReadPolicy rawReadPolicy;
    private final KeyFilterPruner keyPruner;
    private final BucketFilter bucketFilter;
    private final String tableName;

    SnapshotTableScan(FileStoreScan scan, RawReadPolicy rawReadPolicy, KeyFilterPruner keyPrunerOrNull,
            BucketFilter bucketFilterOrNull, String tableName) {
        this.scan = scan;
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
        long snapshotId = plan.snapshot().get().id();
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
            if (!files.isEmpty()) {
                splits.add(new DataSplit(snapshotId, k.partition(), k.bucket(), totalBuckets.get(k), files, raw));
            }
        }
        return new Plan(snapshotId, splits);
    }
}
