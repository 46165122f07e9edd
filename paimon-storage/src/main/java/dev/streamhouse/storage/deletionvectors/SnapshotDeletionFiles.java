package dev.streamhouse.storage.deletionvectors;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.index.DeletionVectorMeta;
import dev.streamhouse.storage.index.IndexFileMeta;
import dev.streamhouse.storage.index.IndexManifestEntry;
import dev.streamhouse.storage.index.IndexManifestFile;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.manifest.PartitionBucket;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.snapshot.SnapshotManager;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Where the deletion vectors of one snapshot's data files are (docs/format.md §9.2), from its index manifest:
 * its {@code DELETION_VECTORS} index files per (partition, bucket) and their ranges, one per data file
 * with a vector. A planner reads them once per plan ({@link Loader#of(Snapshot)}) and hands each full
 * split the {@link DeletionFile}s of its files ({@link #forFiles}); nothing of the index files is read
 * here. Immutable.
 */
public final class SnapshotDeletionFiles {
    private final long snapshotId;
    private final Map<PartitionBucket, Map<String, DeletionFile>> byBucket;

    private SnapshotDeletionFiles(long snapshotId, Map<PartitionBucket, Map<String, DeletionFile>> byBucket) {
        this.snapshotId = snapshotId;
        this.byBucket = byBucket;
    }

    /** The snapshot whose index manifest this is. */
    public long snapshotId() {
        return snapshotId;
    }

    /**
     * The deletion files of {@code files} of ({@code partition}, {@code bucket}), in their order: null
     * for a file without a vector.
     */
    public List<DeletionFile> forFiles(BinaryRow partition, int bucket, List<DataFileMeta> files) {
        Map<String, DeletionFile> ofBucket = byBucket.getOrDefault(new PartitionBucket(partition, bucket), Map.of());
        List<DeletionFile> out = new ArrayList<>(files.size());
        for (DataFileMeta f : files) {
            out.add(ofBucket.get(f.fileName()));
        }
        return Collections.unmodifiableList(out);
    }

    /**
     * The deletion files of a snapshot from the entries of its index manifest (other index types are
     * left out).
     *
     * @throws CorruptDeletionVectorException if a DV index file lists no ranges, or two index files of
     *     a bucket hold a vector of the same data file
     */
    public static SnapshotDeletionFiles of(long snapshotId, List<IndexManifestEntry> entries,
            DeletionVectorIndexFile indexFiles, String tableName) {
        Map<PartitionBucket, Map<String, DeletionFile>> byBucket = new HashMap<>();
        Map<PartitionBucket, Map<String, String>> indexOfFile = new HashMap<>();
        for (IndexManifestEntry e : entries) {
            IndexFileMeta index = e.indexFile();
            if (!IndexFileMeta.DELETION_VECTORS_INDEX.equals(index.indexType())) {
                continue;
            }
            String path = indexFiles.path(index).toString();
            if (index.deletionVectorRanges() == null) {
                throw new CorruptDeletionVectorException(indexFiles.path(index), "Cannot read deletion-vector index "
                        + "file " + path + " of table " + tableName + ": its index manifest entry in snapshot "
                        + snapshotId + " lists no deletion-vector ranges; the index manifest is corrupt", null);
            }
            PartitionBucket bucket = new PartitionBucket(e.partition(), e.bucket());
            Map<String, DeletionFile> files = byBucket.computeIfAbsent(bucket, k -> new HashMap<>());
            Map<String, String> indexes = indexOfFile.computeIfAbsent(bucket, k -> new HashMap<>());
            for (DeletionVectorMeta range : index.deletionVectorRanges()) {
                String other = indexes.put(range.dataFileName(), index.fileName());
                if (other != null) {
                    throw new CorruptDeletionVectorException(indexFiles.path(index), "Cannot read the deletion vector "
                            + "of data file " + range.dataFileName() + " of table " + tableName + " in snapshot "
                            + snapshotId + ": " + (other.equals(index.fileName()) ? "index file " + other
                            + " holds two of its vectors" : "both index files " + other + " and " + index.fileName()
                            + " hold one") + "; the index manifest is corrupt", null);
                }
                files.put(range.dataFileName(), new DeletionFile(path, range.offset(), range.length(),
                        range.cardinality()));
            }
        }
        return new SnapshotDeletionFiles(snapshotId, byBucket);
    }

    /** Reads the index manifests of a table's snapshots. Thread-safe. */
    public static final class Loader {
        private final SnapshotManager snapshots;
        private final IndexManifestFile indexManifests;
        private final DeletionVectorIndexFile indexFiles;
        private final String tableName;

        public Loader(SnapshotManager snapshots, IndexManifestFile indexManifests, DeletionVectorIndexFile indexFiles,
                String tableName) {
            this.snapshots = Objects.requireNonNull(snapshots, "snapshots");
            this.indexManifests = Objects.requireNonNull(indexManifests, "indexManifests");
            this.indexFiles = Objects.requireNonNull(indexFiles, "indexFiles");
            this.tableName = Objects.requireNonNull(tableName, "tableName");
        }

        /** The deletion files of {@code snapshot}: one read of its index manifest, none if it has none. */
        public SnapshotDeletionFiles of(Snapshot snapshot) throws IOException {
            if (snapshot.indexManifest() == null) {
                return new SnapshotDeletionFiles(snapshot.id(), Map.of());
            }
            List<IndexManifestEntry> entries;
            try {
                entries = indexManifests.read(snapshot.indexManifest());
            } catch (IOException e) {
                throw new IOException("Cannot read the deletion vectors of snapshot " + snapshot.id() + " of table "
                        + tableName + ": index manifest " + snapshot.indexManifest() + ": " + e.getMessage(), e);
            }
            return SnapshotDeletionFiles.of(snapshot.id(), entries, indexFiles, tableName);
        }

        /**
         * The deletion files of snapshot {@code snapshotId}; its errors name the snapshot and the table
         * (it may have expired since the read was planned).
         */
        public SnapshotDeletionFiles of(long snapshotId) throws IOException {
            Snapshot snapshot;
            try {
                snapshot = snapshots.snapshot(snapshotId);
            } catch (IOException e) {
                throw new IOException("Cannot read the deletion vectors of snapshot " + snapshotId + " of table "
                        + tableName + ": " + e.getMessage(), e);
            }
            return of(snapshot);
        }
    }
}
