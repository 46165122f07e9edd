package dev.streamhouse.storage.manifest;

import dev.streamhouse.storage.data.BinaryRow;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Compacts the manifests of a snapshot's base list during commit (docs/format.md §5.7), on the input
 * {@code manifests(base(n)) ++ manifests(delta(n))} in order:
 *
 * <ol>
 *   <li><b>Full compaction</b> when the manifests that "must change" ({@code _NUM_DELETED_FILES > 0}
 *       or smaller than the target size) total at least the threshold: all DELETE identities are
 *       collected; manifests that need not change and whose partition statistics cannot hold a
 *       partition with a DELETE are kept as they are; all others are rewritten without DELETEs and
 *       without the ADDs those DELETEs cancel. Skipped if at most one manifest would be rewritten.
 *   <li>Otherwise <b>minor compaction</b>: walk the input accumulating sizes; whenever a group reaches
 *       the target size it is merged (ADD/DELETE cancellation within the group) if it has more than one
 *       manifest; a leftover group is merged only if it has at least {@code mergeMinCount} manifests.
 * </ol>
 *
 * <p>What a merge writes is sorted by partition and bucket ({@link PartitionOrder}), so each written
 * manifest, and each block in it, covers a narrow range of partitions. Merging never changes the live
 * file set. Input manifests are never deleted (older snapshots still
 * use them). On failure the manifests written so far are deleted and the error rethrown, so nothing
 * leaks; on success {@link Result#newlyWritten()} lists exactly the new files, for the caller to delete
 * if its commit then fails.
 */
public final class ManifestFileMerger {
    private ManifestFileMerger() {}

    /**
     * @param merged the manifests to use instead of the input, in order
     * @param newlyWritten the manifests in {@code merged} that this merge wrote
     */
    public record Result(List<ManifestFileMeta> merged, List<ManifestFileMeta> newlyWritten) {
        public Result {
            merged = List.copyOf(merged);
            newlyWritten = List.copyOf(newlyWritten);
        }
    }

    /**
     * @param manifestFile writes the merged manifests (and reads the input)
     * @param targetFileSizeBytes {@code manifest.target-file-size}
     * @param mergeMinCount {@code manifest.merge-min-count}
     * @param fullCompactionThresholdBytes {@code manifest.full-compaction-threshold-size}
     */
    public static Result merge(List<ManifestFileMeta> input, ManifestFile manifestFile, long targetFileSizeBytes,
            int mergeMinCount, long fullCompactionThresholdBytes) throws IOException {
        List<ManifestFileMeta> newlyWritten = new ArrayList<>();
        try {
            List<ManifestFileMeta> full = tryFullCompaction(input, manifestFile, targetFileSizeBytes,
                    fullCompactionThresholdBytes, newlyWritten);
            List<ManifestFileMeta> merged = full != null
                    ? full
                    : minorCompaction(input, manifestFile, targetFileSizeBytes, mergeMinCount, newlyWritten);
            return new Result(merged, newlyWritten);
        } catch (IOException | RuntimeException e) {
            for (ManifestFileMeta written : newlyWritten) {
                manifestFile.delete(written.fileName());
            }
            throw e;
        }
    }

    private static boolean mustChange(ManifestFileMeta m, long targetFileSizeBytes) {
        return m.numDeletedFiles() > 0 || m.fileSize() < targetFileSizeBytes;
    }

    /** The fully compacted list, or null when full compaction does not apply. */
    private static List<ManifestFileMeta> tryFullCompaction(List<ManifestFileMeta> input, ManifestFile manifestFile,
            long targetFileSizeBytes, long thresholdBytes, List<ManifestFileMeta> newlyWritten) throws IOException {
        long mustChangeBytes = 0;
        for (ManifestFileMeta m : input) {
            if (mustChange(m, targetFileSizeBytes)) {
                mustChangeBytes += m.fileSize();
            }
        }
        if (mustChangeBytes < thresholdBytes) {
            return null;
        }
        Set<FileIdentifier> deleted = new HashSet<>();
        Set<BinaryRow> deletedPartitions = new HashSet<>();
        for (ManifestFileMeta m : input) {
            if (m.numDeletedFiles() > 0) {
                for (ManifestEntry e : manifestFile.read(m.fileName(), m.fileSize())) {
                    if (e.kind() == FileKind.DELETE) {
                        deleted.add(e.identifier());
                        deletedPartitions.add(e.partition());
                    }
                }
            }
        }
        PartitionStatsFilter filter = new PartitionStatsFilter(manifestFile.partitionType());
        List<ManifestFileMeta> kept = new ArrayList<>();
        List<ManifestFileMeta> toRewrite = new ArrayList<>();
        for (ManifestFileMeta m : input) {
            if (!mustChange(m, targetFileSizeBytes) && !filter.mayContainAny(m.partitionStats(), deletedPartitions)) {
                kept.add(m);
            } else {
                toRewrite.add(m);
            }
        }
        if (toRewrite.size() <= 1) {
            return null;
        }
        List<ManifestEntry> survivors = new ArrayList<>();
        for (ManifestFileMeta m : toRewrite) {
            for (ManifestEntry e : manifestFile.read(m.fileName(), m.fileSize())) {
                if (e.kind() == FileKind.ADD && !deleted.contains(e.identifier())) {
                    survivors.add(e);
                }
            }
        }
        List<ManifestFileMeta> written = manifestFile.write(sortedByPartition(survivors, manifestFile));
        newlyWritten.addAll(written);
        kept.addAll(written);
        return kept;
    }

    private static List<ManifestFileMeta> minorCompaction(List<ManifestFileMeta> input, ManifestFile manifestFile,
            long targetFileSizeBytes, int mergeMinCount, List<ManifestFileMeta> newlyWritten) throws IOException {
        List<ManifestFileMeta> result = new ArrayList<>();
        List<ManifestFileMeta> group = new ArrayList<>();
        long groupBytes = 0;
        for (ManifestFileMeta m : input) {
            group.add(m);
            groupBytes += m.fileSize();
            if (groupBytes >= targetFileSizeBytes) {
                mergeGroup(group, manifestFile, result, newlyWritten);
                group.clear();
                groupBytes = 0;
            }
        }
        if (group.size() >= mergeMinCount) {
            mergeGroup(group, manifestFile, result, newlyWritten);
        } else {
            result.addAll(group);
        }
        return result;
    }

    private static void mergeGroup(List<ManifestFileMeta> group, ManifestFile manifestFile,
            List<ManifestFileMeta> result, List<ManifestFileMeta> newlyWritten) throws IOException {
        if (group.size() == 1) {
            result.add(group.get(0));
            return;
        }
        List<ManifestEntry> merged = FileEntries.mergeManifests(manifestFile, group);
        List<ManifestFileMeta> written = manifestFile.write(sortedByPartition(merged, manifestFile));
        newlyWritten.addAll(written);
        result.addAll(written);
    }

    /** Entries in {@link PartitionOrder}; stable, so one bucket's files keep their order. */
    private static List<ManifestEntry> sortedByPartition(List<ManifestEntry> entries, ManifestFile manifestFile) {
        List<ManifestEntry> sorted = new ArrayList<>(entries);
        sorted.sort(new PartitionOrder(manifestFile.partitionType()));
        return sorted;
    }
}
