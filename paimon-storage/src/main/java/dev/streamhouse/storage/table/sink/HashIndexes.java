package dev.streamhouse.storage.table.sink;

import dev.streamhouse.storage.bucket.dynamic.HashIndexFile;
import dev.streamhouse.storage.bucket.dynamic.HashIndexMaintainer;
import dev.streamhouse.storage.bucket.dynamic.IndexChange;
import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.index.IndexFileMeta;
import dev.streamhouse.storage.index.IndexManifestEntry;
import dev.streamhouse.storage.manifest.PartitionBucket;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The hash index files of the dynamic buckets one write writes: one {@link HashIndexMaintainer} per
 * (partition, bucket), opened at the bucket's first record from the file the latest snapshot lists
 * for it ({@link BucketStateLoader#hashIndexEntries}). Not thread-safe.
 */
final class HashIndexes {
    private final HashIndexFile indexFile;
    private final BucketStateLoader state;
    private final Map<PartitionBucket, HashIndexMaintainer> buckets = new LinkedHashMap<>();
    /** Per partition read so far: each bucket's index file in the latest snapshot. */
    private final Map<BinaryRow, Map<Integer, IndexFileMeta>> restored = new HashMap<>();

    HashIndexes(HashIndexFile indexFile, BucketStateLoader state) {
        this.indexFile = indexFile;
        this.state = state;
    }

    /** Records a record with key hash {@code keyHash} written into the bucket. */
    void notifyKey(BinaryRow partition, int bucket, int keyHash) throws IOException {
        PartitionBucket key = new PartitionBucket(partition, bucket);
        HashIndexMaintainer m = buckets.get(key);
        if (m == null) {
            BinaryRow copy = partition.copy();
            m = HashIndexMaintainer.restore(indexFile, copy, bucket, restoredFiles(copy).get(bucket));
            buckets.put(new PartitionBucket(copy, bucket), m);
        }
        m.notifyKey(keyHash);
    }

    private Map<Integer, IndexFileMeta> restoredFiles(BinaryRow partition) throws IOException {
        Map<Integer, IndexFileMeta> files = restored.get(partition);
        if (files == null) {
            files = new HashMap<>();
            for (IndexManifestEntry e : state.hashIndexEntries(partition)) {
                IndexFileMeta other = files.put(e.bucket(), e.indexFile());
                if (other != null) {
                    throw new IllegalStateException("The latest snapshot lists two hash index files for bucket "
                            + e.bucket() + " of one partition: " + other.fileName() + " and "
                            + e.indexFile().fileName());
                }
            }
            restored.put(partition, files);
        }
        return files;
    }

    /**
     * A new complete index file for every bucket that received new hashes since the last call, with
     * the file each replaces. All or nothing: on failure the files written by this call are deleted
     * and the changes stay pending.
     */
    List<IndexChange> prepareCommit() throws IOException {
        List<IndexChange> changes = new ArrayList<>();
        List<HashIndexMaintainer> changed = new ArrayList<>();
        try {
            for (HashIndexMaintainer m : buckets.values()) {
                IndexChange c = m.prepareNewFile();
                if (c != null) {
                    changes.add(c);
                    changed.add(m);
                }
            }
        } catch (IOException | RuntimeException e) {
            for (IndexChange c : changes) {
                indexFile.deleteQuietly(c.newFile());
            }
            throw e;
        }
        for (int i = 0; i < changes.size(); i++) {
            changed.get(i).committed(changes.get(i));
        }
        return changes;
    }
}
