package dev.streamhouse.storage.deletionvectors;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.index.DeletionVectorMeta;
import dev.streamhouse.storage.index.IndexFileMeta;
import dev.streamhouse.storage.index.IndexManifestEntry;
import dev.streamhouse.storage.index.IndexManifestFile;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.manifest.PartitionBucket;
import dev.streamhouse.storage.read.DeletionVector;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.snapshot.SnapshotManager;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The deletion vectors of a table's snapshots, for reads (FORMAT §9.2): a snapshot's index manifest
 * lists its {@code DELETION_VECTORS} index files per (partition, bucket), and each file's ranges say
 * which data files have a vector in it. {@link #ofBucket} answers for the data files of one bucket of
 * one snapshot; it reads nothing until it is asked for a file, and then only that bucket's index file
 * (so a read never parses the vectors of buckets it does not read).
 *
 * <p>Index manifests and index files never change once written, so they are remembered: the DV
 * entries of the last {@value #REMEMBERED_SNAPSHOTS} snapshots asked for, and a bucket's vectors for as
 * long as its source is referenced. Thread-safe.
 */
public final class SnapshotDeletionVectors {
    private static final int REMEMBERED_SNAPSHOTS = 8;

    private final SnapshotManager snapshots;
    private final IndexManifestFile indexManifests;
    private final DeletionVectorIndexFile indexFiles;
    private final String tableName;
    private final Map<Long, Map<PartitionBucket, List<IndexFileMeta>>> bySnapshot =
            new LinkedHashMap<>(16, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<Long, Map<PartitionBucket, List<IndexFileMeta>>> eldest) {
                    return size() > REMEMBERED_SNAPSHOTS;
                }
            };

    public SnapshotDeletionVectors(SnapshotManager snapshots, IndexManifestFile indexManifests,
            DeletionVectorIndexFile indexFiles, String tableName) {
        this.snapshots = Objects.requireNonNull(snapshots, "snapshots");
        this.indexManifests = Objects.requireNonNull(indexManifests, "indexManifests");
        this.indexFiles = Objects.requireNonNull(indexFiles, "indexFiles");
        this.tableName = Objects.requireNonNull(tableName, "tableName");
    }

    /**
     * The deletion vectors of the data files of ({@code partition}, {@code bucket}) in snapshot
     * {@code snapshotId}: a data file without one has none (null). The source may only be asked for
     * files of that bucket; its errors name the snapshot, the index file and the table (the snapshot
     * may have expired since the read was planned).
     */
    public DeletionVector.Source ofBucket(long snapshotId, BinaryRow partition, int bucket) {
        return new BucketVectors(snapshotId, new PartitionBucket(partition, bucket));
    }

    /** The DV index files of a snapshot by bucket, from its index manifest. */
    private Map<PartitionBucket, List<IndexFileMeta>> indexFilesOf(long snapshotId) throws IOException {
        synchronized (bySnapshot) {
            Map<PartitionBucket, List<IndexFileMeta>> known = bySnapshot.get(snapshotId);
            if (known != null) {
                return known;
            }
        }
        Map<PartitionBucket, List<IndexFileMeta>> byBucket = new HashMap<>();
        Snapshot snapshot;
        try {
            snapshot = snapshots.snapshot(snapshotId);
        } catch (IOException e) {
            throw new IOException("Cannot read the deletion vectors of snapshot " + snapshotId + " of table "
                    + tableName + ": " + e.getMessage(), e);
        }
        if (snapshot.indexManifest() != null) {
            for (IndexManifestEntry e : indexManifests.read(snapshot.indexManifest())) {
                if (IndexFileMeta.DELETION_VECTORS_INDEX.equals(e.indexFile().indexType())) {
                    byBucket.computeIfAbsent(new PartitionBucket(e.partition(), e.bucket()), k -> new ArrayList<>())
                            .add(e.indexFile());
                }
            }
        }
        synchronized (bySnapshot) {
            bySnapshot.put(snapshotId, byBucket);
        }
        return byBucket;
    }

    /** The vectors of one bucket of one snapshot, read on first use. */
    private final class BucketVectors implements DeletionVector.Source {
        private final long snapshotId;
        private final PartitionBucket bucket;
        /** Data file name to the index file holding its vector; null until first asked. */
        private Map<String, IndexFileMeta> indexOfFile;
        /** The vectors of the index files read so far, by index file name. */
        private final Map<String, Map<String, BitmapDeletionVector>> read = new HashMap<>();

        BucketVectors(long snapshotId, PartitionBucket bucket) {
            this.snapshotId = snapshotId;
            this.bucket = bucket;
        }

        @Override
        public synchronized DeletionVector of(BinaryRow partition, int bucketId, DataFileMeta file) throws IOException {
            if (bucketId != bucket.bucket() || !partition.equals(bucket.partition())) {
                throw new IllegalArgumentException("Cannot look up the deletion vector of data file " + file.fileName()
                        + " of table " + tableName + ": it is in bucket " + bucketId + ", this source is for bucket "
                        + bucket.bucket() + " of another partition or bucket");
            }
            if (indexOfFile == null) {
                indexOfFile = index(indexFilesOf(snapshotId).getOrDefault(bucket, List.of()));
            }
            IndexFileMeta index = indexOfFile.get(file.fileName());
            if (index == null) {
                return null;
            }
            Map<String, BitmapDeletionVector> vectors = read.get(index.fileName());
            if (vectors == null) {
                vectors = indexFiles.read(index);
                read.put(index.fileName(), vectors);
            }
            BitmapDeletionVector vector = vectors.get(file.fileName());
            return vector == null || vector.isEmpty() ? null : vector;
        }

        private Map<String, IndexFileMeta> index(List<IndexFileMeta> files) {
            Map<String, IndexFileMeta> out = new HashMap<>();
            for (IndexFileMeta f : files) {
                if (f.deletionVectorRanges() == null) {
                    throw new CorruptDeletionVectorException(indexFiles.path(f), "Cannot read deletion-vector index file "
                            + indexFiles.path(f) + " of table " + tableName + ": its index manifest entry in snapshot "
                            + snapshotId + " lists no deletion-vector ranges; the index manifest is corrupt", null);
                }
                for (DeletionVectorMeta range : f.deletionVectorRanges()) {
                    IndexFileMeta other = out.put(range.dataFileName(), f);
                    if (other != null && other != f) {
                        throw new CorruptDeletionVectorException(indexFiles.path(f), "Cannot read the deletion vector "
                                + "of data file " + range.dataFileName() + " of table " + tableName + " in snapshot "
                                + snapshotId + ": both index files " + other.fileName() + " and " + f.fileName()
                                + " hold one; the index manifest is corrupt", null);
                    }
                }
            }
            return out;
        }
    }
}
