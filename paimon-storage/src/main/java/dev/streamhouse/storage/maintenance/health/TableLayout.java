package dev.streamhouse.storage.maintenance.health;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.index.DeletionVectorMeta;
import dev.streamhouse.storage.index.IndexFileMeta;
import dev.streamhouse.storage.index.IndexManifestEntry;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.manifest.FileKind;
import dev.streamhouse.storage.manifest.ManifestEntry;
import dev.streamhouse.storage.manifest.PartitionBucket;
import dev.streamhouse.storage.operation.ManifestFilter;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.table.FileStoreTable;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The shape of a table's LSM trees in one snapshot, from metadata only: per (partition, bucket) its
 * live data files, and per level their count, rows, bytes, smallest and largest file and deleted
 * rows. Deleted rows of a file are its {@code deleteRowCount} (retractions it holds: DELETE and
 * UPDATE_BEFORE rows of a primary-key table) plus the cardinality of its deletion vector in the
 * snapshot's index manifest (rows of the file that newer files replaced). No data file is opened.
 *
 * <p>Buckets are ordered by partition (as its values render, e.g. {@code dt=2024-01-01}) and bucket,
 * levels ascending. An append table's files are all on level 0.
 */
public final class TableLayout {
    private final List<BucketStats> buckets;

    /** Totals of the files of one level of one bucket. */
    public record LevelStats(int level, long fileCount, long rowCount, long bytes, long minFileBytes,
            long maxFileBytes, long deletedRows) {
        /** The mean file size in bytes (0 without files). */
        public long avgFileBytes() {
            return fileCount == 0 ? 0 : bytes / fileCount;
        }
    }

    /**
     * One bucket of one partition.
     *
     * @param partitionSpec the partition values by key as the partition's directory names them (empty
     *     for an unpartitioned table)
     * @param levels the non-empty levels, ascending
     * @param files the live files, in manifest order
     */
    public record BucketStats(BinaryRow partition, LinkedHashMap<String, String> partitionSpec, int bucket,
            List<LevelStats> levels, List<DataFileMeta> files, long deletedRows) {

        public long rowCount() {
            return levels.stream().mapToLong(LevelStats::rowCount).sum();
        }

        public long bytes() {
            return levels.stream().mapToLong(LevelStats::bytes).sum();
        }

        public long fileCount() {
            return files.size();
        }

        /** The level, or null if the bucket has no file on it. */
        public LevelStats level(int level) {
            for (LevelStats l : levels) {
                if (l.level() == level) {
                    return l;
                }
            }
            return null;
        }

        /** {@code dt=2024-01-01/hh=01}, or empty for an unpartitioned table. */
        public String partitionText() {
            return partitionText(partitionSpec);
        }

        static String partitionText(Map<String, String> spec) {
            StringBuilder out = new StringBuilder();
            spec.forEach((k, v) -> out.append(out.length() == 0 ? "" : "/").append(k).append('=').append(v));
            return out.toString();
        }
    }

    private TableLayout(List<BucketStats> buckets) {
        this.buckets = buckets;
    }

    /** The layout of {@code snapshot} of {@code table}. */
    public static TableLayout of(FileStoreTable table, Snapshot snapshot) throws IOException {
        Map<PartitionBucket, List<DataFileMeta>> files = new LinkedHashMap<>();
        for (ManifestEntry e : table.snapshotEntries().liveEntries(snapshot, ManifestFilter.ALL)) {
            files.computeIfAbsent(new PartitionBucket(e.partition(), e.bucket()), k -> new ArrayList<>()).add(e.file());
        }
        Map<PartitionBucket, Map<String, Long>> deletionVectors = deletionVectorCardinalities(table, snapshot);
        List<BucketStats> out = new ArrayList<>();
        for (Map.Entry<PartitionBucket, List<DataFileMeta>> e : files.entrySet()) {
            Map<String, Long> dv = deletionVectors.getOrDefault(e.getKey(), Map.of());
            out.add(bucketStats(e.getKey(), table.paths().renderer().values(e.getKey().partition()), e.getValue(), dv));
        }
        out.sort(Comparator.comparing((BucketStats b) -> b.partitionText()).thenComparingInt(BucketStats::bucket));
        return new TableLayout(List.copyOf(out));
    }

    /** An empty layout (a table without snapshots). */
    public static TableLayout empty() {
        return new TableLayout(List.of());
    }

    /** The buckets with live files. */
    public List<BucketStats> buckets() {
        return buckets;
    }

    private static BucketStats bucketStats(PartitionBucket pb, LinkedHashMap<String, String> spec,
            List<DataFileMeta> files, Map<String, Long> dvCardinality) {
        TreeMap<Integer, long[]> levels = new TreeMap<>();
        long deleted = 0;
        for (DataFileMeta f : files) {
            // count, rows, bytes, min, max, deleted
            long[] t = levels.computeIfAbsent(f.level(), l -> new long[] {0, 0, 0, Long.MAX_VALUE, 0, 0});
            long fileDeleted = f.deleteRowCountOrZero() + dvCardinality.getOrDefault(f.fileName(), 0L);
            t[0]++;
            t[1] += f.rowCount();
            t[2] += f.fileSize();
            t[3] = Math.min(t[3], f.fileSize());
            t[4] = Math.max(t[4], f.fileSize());
            t[5] += fileDeleted;
            deleted += fileDeleted;
        }
        List<LevelStats> out = new ArrayList<>();
        levels.forEach((level, t) -> out.add(new LevelStats(level, t[0], t[1], t[2], t[3], t[4], t[5])));
        return new BucketStats(pb.partition(), spec, pb.bucket(), List.copyOf(out), List.copyOf(files), deleted);
    }

    /** Deleted rows per data file name, per bucket, from the snapshot's deletion-vector index files. */
    private static Map<PartitionBucket, Map<String, Long>> deletionVectorCardinalities(FileStoreTable table,
            Snapshot snapshot) throws IOException {
        Map<PartitionBucket, Map<String, Long>> out = new HashMap<>();
        if (snapshot.indexManifest() == null) {
            return out;
        }
        for (IndexManifestEntry entry : table.indexManifestFile().read(snapshot.indexManifest())) {
            IndexFileMeta file = entry.indexFile();
            if (entry.kind() != FileKind.ADD || !IndexFileMeta.DELETION_VECTORS_INDEX.equals(file.indexType())
                    || file.deletionVectorRanges() == null) {
                continue;
            }
            Map<String, Long> byFile =
                    out.computeIfAbsent(new PartitionBucket(entry.partition(), entry.bucket()), k -> new HashMap<>());
            for (DeletionVectorMeta dv : file.deletionVectorRanges()) {
                if (dv.cardinality() != null) {
                    byFile.merge(dv.dataFileName(), dv.cardinality(), Long::sum);
                }
            }
        }
        return out;
    }
}
