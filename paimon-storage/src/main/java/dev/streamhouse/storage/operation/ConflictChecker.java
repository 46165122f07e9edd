package dev.streamhouse.storage.operation;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.manifest.FileIdentifier;
import dev.streamhouse.storage.manifest.FileKind;
import dev.streamhouse.storage.manifest.ManifestEntry;
import dev.streamhouse.storage.snapshot.CommitKind;
import dev.streamhouse.storage.snapshot.Snapshot;

import java.io.IOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks a commit against the latest snapshot (FORMAT §4.3): every DELETE must cancel a live file,
 * and within a partition all live files must agree on the bucket count (except for OVERWRITE).
 * Only reads manifests when the commit deletes files or uses fixed buckets.
 */
final class ConflictChecker {
    private final SnapshotEntries entries;
    private final String tableName;

    ConflictChecker(SnapshotEntries entries, String tableName) {
        this.entries = entries;
        this.tableName = tableName;
    }

    void check(Snapshot latest, List<ManifestEntry> changes, CommitKind kind) throws IOException {
        boolean hasDelete = false;
        boolean fixedBuckets = false;
        Set<BinaryRow> partitions = new HashSet<>();
        for (ManifestEntry e : changes) {
            hasDelete |= e.kind() == FileKind.DELETE;
            fixedBuckets |= e.totalBuckets() >= 0;
            partitions.add(e.partition());
        }
        if (!hasDelete && (!fixedBuckets || kind == CommitKind.OVERWRITE)) {
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
                            + e.file().fileName() + " (bucket " + e.bucket() + ", level " + e.file().level()
                            + ") is no longer live; a concurrent compaction or overwrite removed it first", null);
                }
                deleted.add(e.identifier());
            }
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

    private void checkBuckets(Map<BinaryRow, Integer> seen, ManifestEntry e) {
        Integer previous = seen.putIfAbsent(e.partition(), e.totalBuckets());
        if (previous != null && previous != e.totalBuckets()) {
            throw new InvalidCommitException("Cannot commit to table " + tableName + ": a partition would hold "
                    + "files written with " + previous + " and with " + e.totalBuckets()
                    + " buckets; use INSERT OVERWRITE to rescale a partition");
        }
    }
}
