package dev.streamhouse.storage.maintenance.health;

import dev.streamhouse.storage.maintenance.health.TableLayout.BucketStats;
import dev.streamhouse.storage.maintenance.health.TableLayout.LevelStats;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.table.sink.CompactionBuckets;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The checks of a table's file layout (levels, files, buckets), one method per check; see
 * {@link TableHealth} for what each measures and why.
 */
final class LayoutChecks {
    private final HealthThresholds limits;
    private final Statements sql;
    private final List<HealthFinding> out;

    LayoutChecks(HealthThresholds limits, Statements sql, List<HealthFinding> out) {
        this.limits = limits;
        this.sql = sql;
        this.out = out;
    }

    void run(TableLayout layout) {
        for (BucketStats b : layout.buckets()) {
            if (limits.primaryKey()) {
                level0Files(b);
                largeLevel0Files(b);
                sizeAmplification(b);
            }
            smallFiles(b);
            deletedRows(b);
            if (limits.primaryKey() && limits.buckets() == -1) {
                dynamicBucketOverflow(b);
            }
        }
        fileCount(layout);
        if (limits.buckets() > 1) {
            bucketSkew(layout);
        }
    }

    /** level0_files: level-0 files of a bucket at the compaction trigger (MEDIUM) or stop trigger (HIGH). */
    private void level0Files(BucketStats b) {
        LevelStats l0 = b.level(0);
        if (l0 == null || l0.fileCount() < limits.compactionTrigger()) {
            return;
        }
        boolean stalled = l0.fileCount() >= limits.stopTrigger();
        addAt(b, 0, stalled ? Severity.HIGH : Severity.MEDIUM, "level0_files", Long.toString(l0.fileCount()),
                Integer.toString(stalled ? limits.stopTrigger() : limits.compactionTrigger()),
                l0.fileCount() + " level-0 files (each one sorted run) reach num-sorted-run."
                        + (stalled ? "stop-trigger " + limits.stopTrigger() + ": writes to this bucket wait for compaction"
                                : "compaction-trigger " + limits.compactionTrigger()
                                        + ": every read merges them; the writer is not compacting (write-only?)"),
                sql.compact(b.partitionSpec()));
    }

    /** large_level0_files: a level-0 file larger than write-buffer-size (its buffer spilled). */
    private void largeLevel0Files(BucketStats b) {
        LevelStats l0 = b.level(0);
        if (l0 == null || l0.maxFileBytes() <= limits.writeBufferBytes()) {
            return;
        }
        addAt(b, 0, Severity.LOW, "large_level0_files", Long.toString(l0.maxFileBytes()),
                Long.toString(limits.writeBufferBytes()),
                "a level-0 file of " + l0.maxFileBytes() + " bytes is larger than write-buffer-size: the buffer "
                        + "spilled and merged on flush, and the next compaction rewrites it whole; compact it up "
                        + "now, and raise write-buffer-size if this recurs",
                sql.compact(b.partitionSpec()));
    }

    /**
     * size_amplification: the sorted runs above a bucket's highest level together exceed
     * max-size-amplification-percent of that level.
     */
    private void sizeAmplification(BucketStats b) {
        if (b.levels().size() < 2 && (b.level(0) == null || b.level(0).fileCount() < 2)) {
            return;
        }
        LevelStats last = b.levels().get(b.levels().size() - 1);
        if (last.level() == 0 || last.bytes() == 0) {
            return;
        }
        long newer = b.bytes() - last.bytes();
        long percent = newer * 100 / last.bytes();
        if (percent <= limits.maxSizeAmplificationPercent()) {
            return;
        }
        addAt(b, null, Severity.MEDIUM, "size_amplification", percent + "%",
                limits.maxSizeAmplificationPercent() + "%",
                "the newer sorted runs hold " + newer + " bytes, " + percent + "% of the " + last.bytes()
                        + " bytes of level " + last.level() + " (compaction.max-size-amplification-percent): reads "
                        + "merge mostly overwritten data",
                sql.compact(b.partitionSpec()));
    }

    /** small_files: files under 70 % of target-file-size, as many as the writers' own compaction threshold. */
    private void smallFiles(BucketStats b) {
        long small = 0;
        for (DataFileMeta f : b.files()) {
            if (f.fileSize() < limits.smallFileBytes()) {
                small++;
            }
        }
        if (small < limits.smallFilesPerBucket()) {
            return;
        }
        addAt(b, null, Severity.MEDIUM, "small_files", Long.toString(small),
                Integer.toString(limits.smallFilesPerBucket()),
                small + " files are smaller than " + limits.smallFileBytes() + " bytes (70% of target-file-size), "
                        + "at least " + (limits.primaryKey() ? "num-sorted-run.compaction-trigger"
                                : "compaction.min.file-num") + ": every scan opens them all",
                sql.compact(b.partitionSpec()));
    }

    /** deleted_rows: deleted (retracted or deletion-vector) rows per row above compaction.delete-ratio-threshold. */
    private void deletedRows(BucketStats b) {
        long rows = b.rowCount();
        if (rows == 0 || b.deletedRows() == 0) {
            return;
        }
        double ratio = (double) b.deletedRows() / rows;
        if (ratio <= limits.deleteRatio()) {
            return;
        }
        addAt(b, null, Severity.MEDIUM, "deleted_rows", ratio(ratio), ratio(limits.deleteRatio()),
                b.deletedRows() + " of " + rows + " stored rows are deleted (retractions and deletion vectors), more "
                        + "than compaction.delete-ratio-threshold: reads skip them, storage keeps them",
                sql.compact(b.partitionSpec()));
    }

    /** dynamic_bucket_overflow: a dynamic bucket holding more rows than dynamic-bucket.target-row-num. */
    private void dynamicBucketOverflow(BucketStats b) {
        long rows = b.rowCount() - b.deletedRows();
        if (rows <= limits.dynamicBucketTargetRows()) {
            return;
        }
        boolean oneRun = b.levels().size() == 1 && (b.levels().get(0).level() > 0 || b.files().size() == 1);
        addAt(b, null, Severity.MEDIUM, "dynamic_bucket_overflow", Long.toString(rows),
                Long.toString(limits.dynamicBucketTargetRows()),
                rows + " rows in one dynamic bucket exceed dynamic-bucket.target-row-num"
                        + (oneRun ? ": the keys were assigned under a larger target (keys never move between buckets)"
                                : " counting versions not yet compacted away"),
                oneRun ? sql.alter("dynamic-bucket.target-row-num", Long.toString(rows))
                        : sql.compact(b.partitionSpec()));
    }

    /** file_count: live files beyond what a healthy writer leaves (allowance per bucket + bytes / target). */
    private void fileCount(TableLayout layout) {
        long files = 0;
        long allowed = 0;
        int allowancePerBucket = limits.primaryKey() ? limits.stopTrigger() : limits.smallFilesPerBucket();
        for (BucketStats b : layout.buckets()) {
            files += b.fileCount();
            allowed += allowancePerBucket + (b.bytes() + limits.targetFileBytes() - 1) / limits.targetFileBytes();
        }
        if (files <= allowed) {
            return;
        }
        add(Severity.LOW, "file_count", "table", Long.toString(files), Long.toString(allowed),
                files + " live data files, more than " + allowed + " (per bucket " + allowancePerBucket
                        + (limits.primaryKey() ? " (num-sorted-run.stop-trigger)" : " (compaction.min.file-num)")
                        + " plus its bytes / target-file-size): planning and reading pay per file",
                sql.compactTable());
    }

    /**
     * bucket_skew: a bucket with more than (1 + max-size-amplification-percent/100) times its partition's
     * mean bytes that still holds versions not compacted away (several sorted runs, or deletions). A
     * compacted bucket that is skewed is not reported: its keys are skewed, and no statement fixes that
     * short of a new table with another bucket key (rescaling adds buckets, which raises the ratio).
     */
    private void bucketSkew(TableLayout layout) {
        Map<String, List<BucketStats>> byPartition = new LinkedHashMap<>();
        for (BucketStats b : layout.buckets()) {
            byPartition.computeIfAbsent(b.partitionText(), k -> new ArrayList<>()).add(b);
        }
        for (List<BucketStats> buckets : byPartition.values()) {
            long bytes = buckets.stream().mapToLong(BucketStats::bytes).sum();
            long rows = buckets.stream().mapToLong(BucketStats::rowCount).sum();
            double meanBytes = (double) bytes / limits.buckets();
            double meanRows = (double) rows / limits.buckets();
            BucketStats max = buckets.stream().max((x, y) -> Long.compare(x.bytes(), y.bytes())).orElseThrow();
            double skew = max.bytes() / meanBytes;
            boolean compacted = max.levels().size() == 1 && max.levels().get(0).level() > 0 && max.deletedRows() == 0;
            if (compacted || max.bytes() < limits.targetFileBytes() || skew <= limits.skewFactor()) {
                continue;
            }
            addAt(max, null, Severity.LOW, "bucket_skew", ratio(skew), ratio(limits.skewFactor()),
                    "bucket " + max.bucket() + " holds " + max.bytes() + " bytes and " + max.rowCount() + " rows, "
                            + ratio(skew) + " times the mean bytes and " + ratio(meanRows == 0 ? 0 : max.rowCount() / meanRows)
                            + " times the mean rows of the partition's " + limits.buckets() + " buckets, in "
                            + "versions not compacted away yet",
                    sql.compact(max.partitionSpec()));
        }
    }

    private void add(Severity severity, String check, String scope, String measured, String threshold,
            String description, String recommendation) {
        out.add(new HealthFinding(severity, check, scope, measured, threshold, description, recommendation, null));
    }

    private void addAt(BucketStats b, Integer level, Severity severity, String check, String measured,
            String threshold, String description, String recommendation) {
        out.add(new HealthFinding(severity, check, scope(b, level), measured, threshold, description, recommendation,
                new CompactionBuckets.Bucket(b.partition(), b.bucket())));
    }

    /** {@code partition=dt=2024-01-01, bucket=3, level=0}, without the parts that do not apply. */
    static String scope(BucketStats b, Integer level) {
        StringBuilder s = new StringBuilder();
        if (!b.partitionSpec().isEmpty()) {
            s.append("partition=").append(b.partitionText()).append(", ");
        }
        s.append("bucket=").append(b.bucket());
        if (level != null) {
            s.append(", level=").append(level);
        }
        return s.toString();
    }

    static String ratio(double value) {
        return String.format(Locale.ROOT, "%.2f", value);
    }
}
