package dev.streamhouse.storage.operation;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.io.PartitionPathRenderer;
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
 * Checks a commit against the latest snapshot (FORMAT §4.3), as it would leave the table:
 * <ul>
 *   <li>every DELETE must cancel a live file (else a concurrent compaction or overwrite removed it);</li>
 *   <li>on every level above 0 of a primary-key bucket the commit adds files to, the files after the
 *       commit must still form one sorted run (disjoint key ranges). Two writers that compact the same
 *       bucket without seeing each other's files can both put a file on one level, each deleting only
 *       its own inputs; the second of those commits is refused here;</li>
 *   <li>within a partition all live files must agree on the bucket count (except for OVERWRITE).</li>
 * </ul>
 * A failed check throws {@link CommitConflictException} (the commit cannot succeed by retrying on the
 * same messages; the writer must reload the bucket) or {@link InvalidCommitException}. Only reads
 * manifests when the commit deletes files, adds files above level 0, or uses fixed buckets.
 */
final class ConflictChecker {
    private final SnapshotEntries entries;
    private final SchemaManager schemas;
    private final String tableName;

    ConflictChecker(SnapshotEntries entries, SchemaManager schemas, String tableName) {
        this.entries = entries;
        this.schemas = schemas;
        this.tableName = tableName;
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
                            + ") is no longer live; a concurrent compaction or overwrite removed it first. If two"
                            + " jobs write this bucket, give each its own partitions or buckets", null);
                }
                deleted.add(e.identifier());
            }
        }
        if (addsAboveLevel0) {
            checkSortedRuns(live, deleted, changes);
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

    /** A (partition, bucket, level) whose files must form one sorted run. */
    private record Run(BinaryRow partition, int bucket, int level) {}

    /** The files above level 0 of the buckets the commit adds such files to, after the commit. */
    private void checkSortedRuns(List<ManifestEntry> live, Set<FileIdentifier> deleted, List<ManifestEntry> changes)
            throws IOException {
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
                            + ", which must be one sorted run; another writer compacted this bucket concurrently."
                            + " If two jobs write this bucket, give each its own partitions or buckets", null);
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
        String bucket = "bucket " + e.bucket();
        if (e.partition().arity() == 0) {
            return bucket;
        }
        try {
            TableSchema schema = schemas.latest().orElse(null);
            if (schema != null) {
                PartitionPathRenderer renderer = new PartitionPathRenderer(schema.partitionType(),
                        schema.tableOptions().get(PartitionOptions.PARTITION_DEFAULT_NAME),
                        schema.tableOptions().get(PartitionOptions.PARTITION_LEGACY_NAME));
                return "partition " + renderer.values(e.partition()) + ", " + bucket;
            }
        } catch (IOException | RuntimeException ignored) {
            // Only the message suffers: fall back to the binary form.
        }
        return "partition " + e.partition() + ", " + bucket;
    }

    private void checkBuckets(Map<BinaryRow, Integer> seen, ManifestEntry e) {
        Integer previous = seen.putIfAbsent(e.partition(), e.totalBuckets());
        if (previous != null && previous != e.totalBuckets()) {
            throw new InvalidCommitException("Cannot commit to table " + tableName + ": a partition would hold "
                    + "files written with " + previous + " and with " + e.totalBuckets()
                    + " buckets; use INSERT OVERWRITE to rescale a partition");
        }
    }
}
