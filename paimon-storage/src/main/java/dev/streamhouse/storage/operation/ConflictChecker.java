package dev.streamhouse.storage.operation;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.index.IndexFileMeta;
import dev.streamhouse.storage.index.IndexManifestEntry;
import dev.streamhouse.storage.index.IndexManifestFile;
import dev.streamhouse.storage.io.PartitionPathRenderer;
import dev.streamhouse.storage.manifest.PartitionBucket;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.manifest.FileIdentifier;
import dev.streamhouse.storage.manifest.FileKind;
import dev.streamhouse.storage.manifest.ManifestEntry;
import dev.streamhouse.storage.mergetree.KeyComparator;
import dev.streamhouse.storage.mergetree.KeyValueLayout;
import dev.streamhouse.storage.options.PartitionOptions;
import dev.streamhouse.storage.schema.SchemaManager;
import dev.streamhouse.storage.schema.TableSchema;
import dev.streamhouse.storage.snapshot.CommitKind;
import dev.streamhouse.storage.snapshot.Snapshot;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks a commit against the latest snapshot (docs/format.md §4.3), as it would leave the table:
 * <ul>
 *   <li>every DELETE must cancel a live file (else a concurrent compaction or overwrite removed it);</li>
 *   <li>on every level above 0 of a primary-key bucket the commit adds files to, the files after the
 *       commit must still form one sorted run (disjoint key ranges). Two writers that compact the same
 *       bucket without seeing each other's files can both put a file on one level, each deleting only
 *       its own inputs; the second of those commits is refused here;</li>
 *   <li>within a partition all live files must agree on the bucket count (except for OVERWRITE);</li>
 *   <li>a commit that replaces a bucket's deletion-vector index file must replace the bucket's current
 *       one ({@link #checkDeletionVectorFiles}): the vectors a writer rewrites are those it loaded.</li>
 * </ul>
 * A failed check throws {@link CommitConflictException} (the commit cannot succeed by retrying on the
 * same messages; the writer must reload the bucket) or {@link InvalidCommitException}. Only reads
 * manifests when the commit deletes files, adds files above level 0, or uses fixed buckets.
 */
final class ConflictChecker {
    private final SnapshotEntries entries;
    private final SchemaManager schemas;
    private final IndexManifestFile indexManifests;
    private final String tableName;
    private final String commitUser;

    /** What a conflict means for the job and how to avoid it; ends every conflict message. */
    static final String WHAT_NOW = " This commit's snapshot was not created; a streaming job fails and restarts"
            + " from its last checkpoint, drops this compaction and deletes its files, reloads the bucket, and loses no"
            + " committed data. Let only one job compact a bucket: give concurrent jobs disjoint partitions, or set"
            + " 'write-only' = 'true' for all writers but one (or for all, with a dedicated CALL sys.compact job)";

    ConflictChecker(SnapshotEntries entries, SchemaManager schemas, IndexManifestFile indexManifests, String tableName,
            String commitUser) {
        this.entries = entries;
        this.schemas = schemas;
        this.indexManifests = indexManifests;
        this.tableName = tableName;
        this.commitUser = commitUser;
    }

    void check(Snapshot latest, List<ManifestEntry> changes, CommitKind kind) throws IOException {
        boolean hasDelete = false;
        boolean fixedBuckets = false;
        boolean addsAboveLevel0 = false;
        Set<BinaryRow> partitions = new HashSet<>();
        for (ManifestEntry e : changes) {
            hasDelete |= e.kind() == FileKind.DELETE;
            fixedBuckets |= e.totalBuckets() >= 0;
            addsAboveLevel0 |= e.kind() == FileKind.ADD && e.file().level() > 0;
            partitions.add(e.partition());
        }
        if (!hasDelete && !addsAboveLevel0 && (!fixedBuckets || kind == CommitKind.OVERWRITE)) {
            return;
        }
        List<ManifestEntry> live = latest == null ? List.of() : entries.liveEntries(latest, partitions);
        Set<FileIdentifier> liveIds = new HashSet<>();
        for (ManifestEntry e : live) {
            liveIds.add(e.identifier());
        }
        Set<FileIdentifier> deleted = new HashSet<>();
        for (ManifestEntry e : changes) {
            if (e.kind() == FileKind.DELETE) {
                if (!liveIds.contains(e.identifier())) {
                    throw new CommitConflictException("Cannot commit to table " + tableName + ": file "
                            + e.file().fileName() + " (" + where(e) + ", level " + e.file().level()
                            + "), which this commit deletes, is no longer live; another job removed it first (a"
                            + " compaction such as CALL sys.compact or another writer's, or an INSERT OVERWRITE; "
                            + latestBy(latest) + ")." + WHAT_NOW, null);
                }
                deleted.add(e.identifier());
            }
        }
        if (addsAboveLevel0) {
            checkSortedRuns(latest, live, deleted, changes);
        }
        if (kind == CommitKind.OVERWRITE) {
            return;
        }
        Map<BinaryRow, Integer> bucketsByPartition = new HashMap<>();
        for (ManifestEntry e : live) {
            if (!deleted.contains(e.identifier())) {
                checkBuckets(bucketsByPartition, e);
            }
        }
        for (ManifestEntry e : changes) {
            if (e.kind() == FileKind.ADD) {
                checkBuckets(bucketsByPartition, e);
            }
        }
    }

    /**
     * Each deletion-vector index file the changes DELETE must be its bucket's current one in
     * {@code latest}, and a bucket that gets a new one without deleting any must have none: otherwise
     * another writer changed the bucket's vectors since this writer loaded them, and committing would
     * drop that writer's deletions.
     */
    void checkDeletionVectorFiles(Snapshot latest, List<IndexManifestEntry> changes) throws IOException {
        Map<PartitionBucket, String> deleting = new HashMap<>();
        Set<PartitionBucket> adding = new HashSet<>();
        for (IndexManifestEntry e : changes) {
            if (IndexFileMeta.DELETION_VECTORS_INDEX.equals(e.indexFile().indexType())) {
                PartitionBucket bucket = new PartitionBucket(e.partition(), e.bucket());
                if (e.kind() == FileKind.DELETE) {
                    deleting.put(bucket, e.indexFile().fileName());
                } else {
                    adding.add(bucket);
                }
            }
        }
        if (deleting.isEmpty() && adding.isEmpty()) {
            return;
        }
        Map<PartitionBucket, String> current = new HashMap<>();
        if (latest != null && latest.indexManifest() != null) {
            for (IndexManifestEntry e : indexManifests.read(latest.indexManifest())) {
                if (IndexFileMeta.DELETION_VECTORS_INDEX.equals(e.indexFile().indexType())) {
                    current.put(new PartitionBucket(e.partition(), e.bucket()), e.indexFile().fileName());
                }
            }
        }
        Set<PartitionBucket> touched = new HashSet<>(deleting.keySet());
        touched.addAll(adding);
        for (PartitionBucket bucket : touched) {
            String expected = deleting.get(bucket);
            String actual = current.get(bucket);
            if (!java.util.Objects.equals(expected, actual)) {
                throw new CommitConflictException("Cannot commit to table " + tableName + ": the commit replaces the "
                        + "deletion vectors of " + where(bucket.partition(), bucket.bucket()) + " it read "
                        + "from " + (expected == null ? "no index file" : "index file " + expected) + ", but they are now in "
                        + (actual == null ? "no index file" : "index file " + actual) + "; another job compacted this"
                        + " bucket concurrently (" + latestBy(latest) + ")." + WHAT_NOW, null);
            }
        }
    }

    /**
     * "the latest snapshot 7 was committed by commit user u, this commit's is v" (or that there is no
     * snapshot): two different users point at two jobs, the same one at a job restored from an old
     * checkpoint or savepoint, or at a dedicated compaction sharing the writer's commit user.
     */
    private String latestBy(Snapshot latest) {
        return (latest == null ? "the table has no snapshot" : "the latest snapshot " + latest.id()
                + " was committed by commit user " + latest.commitUser()) + ", this commit's is " + commitUser;
    }

    /** A (partition, bucket, level) whose files must form one sorted run. */
    private record Run(BinaryRow partition, int bucket, int level) {}

    /** The files above level 0 of the buckets the commit adds such files to, after the commit. */
    private void checkSortedRuns(Snapshot latest, List<ManifestEntry> live, Set<FileIdentifier> deleted,
            List<ManifestEntry> changes) throws IOException {
        TableSchema schema = schemas.latest().orElse(null);
        if (schema == null || !schema.hasPrimaryKey()) {
            return;
        }
        Set<Run> touched = new HashSet<>();
        for (ManifestEntry e : changes) {
            if (e.kind() == FileKind.ADD && e.file().level() > 0) {
                touched.add(new Run(e.partition(), e.bucket(), e.file().level()));
            }
        }
        Map<Run, List<ManifestEntry>> runs = new HashMap<>();
        Set<String> added = new HashSet<>();
        for (ManifestEntry e : changes) {
            if (e.kind() == FileKind.ADD && !deleted.contains(e.identifier())) {
                added.add(e.file().fileName());
                addTo(runs, touched, e);
            }
        }
        for (ManifestEntry e : live) {
            if (!deleted.contains(e.identifier())) {
                addTo(runs, touched, e);
            }
        }
        KeyComparator keys = new KeyComparator(KeyValueLayout.of(schema).keyType());
        for (Map.Entry<Run, List<ManifestEntry>> r : runs.entrySet()) {
            List<ManifestEntry> files = new ArrayList<>(r.getValue());
            files.sort((a, b) -> keys.compare(a.file().minKey(), b.file().minKey()));
            for (int i = 1; i < files.size(); i++) {
                DataFileMeta before = files.get(i - 1).file();
                DataFileMeta after = files.get(i).file();
                if (keys.compare(before.maxKey(), after.minKey()) >= 0) {
                    throw new CommitConflictException("Cannot commit to table " + tableName + ": files "
                            + describe(before, added) + " and " + describe(after, added) + " would overlap in key"
                            + " range on level " + r.getKey().level() + " of " + where(files.get(i))
                            + ", which must be one sorted run; another job compacted this bucket concurrently ("
                            + latestBy(latest) + ")." + WHAT_NOW, null);
                }
            }
        }
    }

    private static void addTo(Map<Run, List<ManifestEntry>> runs, Set<Run> touched, ManifestEntry e) {
        Run run = new Run(e.partition(), e.bucket(), e.file().level());
        if (touched.contains(run)) {
            runs.computeIfAbsent(run, x -> new ArrayList<>()).add(e);
        }
    }

    private static String describe(DataFileMeta f, Set<String> added) {
        return f.fileName() + (added.contains(f.fileName()) ? " (this commit)" : " (live)");
    }

    /** "partition {dt=a}, bucket 0", or "bucket 0" for an unpartitioned table. */
    private String where(ManifestEntry e) {
        return where(e.partition(), e.bucket());
    }

    private String where(BinaryRow partition, int bucketId) {
        String bucket = "bucket " + bucketId;
        if (partition.arity() == 0) {
            return bucket;
        }
        try {
            TableSchema schema = schemas.latest().orElse(null);
            if (schema != null) {
                PartitionPathRenderer renderer = new PartitionPathRenderer(schema.partitionType(),
                        schema.tableOptions().get(PartitionOptions.PARTITION_DEFAULT_NAME),
                        schema.tableOptions().get(PartitionOptions.PARTITION_LEGACY_NAME));
                return "partition " + renderer.values(partition) + ", " + bucket;
            }
        } catch (IOException | RuntimeException ignored) {
            // Only the message suffers: fall back to the binary form.
        }
        return "partition " + partition + ", " + bucket;
    }

    private void checkBuckets(Map<BinaryRow, Integer> seen, ManifestEntry e) {
        Integer previous = seen.putIfAbsent(e.partition(), e.totalBuckets());
        if (previous != null && previous != e.totalBuckets()) {
            throw new InvalidCommitException("Cannot commit to table " + tableName + ": a partition would hold "
                    + "files written with " + previous + " and with " + e.totalBuckets()
                    + " buckets; rewrite the partition with one bucket count by CALL sys.rescale");
        }
    }
}
