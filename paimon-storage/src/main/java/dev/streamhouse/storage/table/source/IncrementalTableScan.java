package dev.streamhouse.storage.table.source;

import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.snapshot.SnapshotManager;
import dev.streamhouse.storage.table.PartitionBucket;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The batch read of {@code incremental-between = 'start,end'}: what snapshots {@code start+1 .. end}
 * changed, with Apache Paimon 1.3's semantics ({@code incremental-between-scan-mode = auto}).
 *
 * <p>Which files: those a streaming read would get for each snapshot of the range
 * ({@link SnapshotChangePlanner}), except that OVERWRITE snapshots are always skipped: the new data
 * files of APPEND snapshots (append tables, {@code changelog-producer = none}), or the changelog files
 * of the snapshots (other producers; for {@code lookup}/{@code full-compaction} they come with COMPACT
 * snapshots). COMPACT snapshots of the first kind only rewrite data and are skipped.
 *
 * <p>How they are read: per (partition, bucket), all files of the range form one full split
 * ({@code delta() == false}). For an append table that is every row the range added. For a
 * primary-key table the split is merged like a batch read: each key changed in the range appears
 * once, as its last version in the range (combined by the merge engine), and not at all if that
 * version is a retraction (-U/-D). So a key deleted in the range is absent, not reported as deleted;
 * read the changes with a streaming read to see them.
 *
 * <p>An empty table plans nothing. A range outside the retained snapshots fails with an
 * {@link IllegalArgumentException} naming the option.
 */
final class IncrementalTableScan implements TableScan {
    private final SnapshotManager snapshots;
    private final SnapshotChangePlanner changes;
    private final SnapshotTableScan.RawReadPolicy rawReadPolicy;
    private final long startExclusive;
    private final long endInclusive;
    private final String tableName;

    /** @param changes a planner that skips OVERWRITE snapshots */
    IncrementalTableScan(SnapshotManager snapshots, SnapshotChangePlanner changes,
            SnapshotTableScan.RawReadPolicy rawReadPolicy, long startExclusive, long endInclusive, String tableName) {
        this.snapshots = snapshots;
        this.changes = changes;
        this.rawReadPolicy = rawReadPolicy;
        this.startExclusive = startExclusive;
        this.endInclusive = endInclusive;
        this.tableName = tableName;
    }

    /**
     * @throws IllegalArgumentException if a snapshot of the range does not exist (expired or not yet
     *     committed)
     */
    @Override
    public Plan plan() {
        Map<PartitionBucket, List<DataFileMeta>> grouped = new LinkedHashMap<>();
        Map<PartitionBucket, Integer> totalBuckets = new LinkedHashMap<>();
        try {
            Long earliest = snapshots.earliestSnapshotId();
            Long latest = snapshots.latestSnapshotId();
            if (earliest == null || latest == null) {
                return new Plan(null, List.of());
            }
            if (startExclusive < earliest - 1 || endInclusive > latest) {
                throw outOfRange("the retained snapshots are " + earliest + " to " + latest);
            }
            for (long id = startExclusive + 1; id <= endInclusive; id++) {
                if (!snapshots.snapshotExists(id)) {
                    throw outOfRange("snapshot " + id + " does not exist (expired meanwhile?)");
                }
                for (DataSplit s : changes.plan(snapshots.snapshot(id))) {
                    PartitionBucket k = new PartitionBucket(s.partition(), s.bucket());
                    grouped.computeIfAbsent(k, x -> new ArrayList<>()).addAll(s.files());
                    totalBuckets.put(k, s.totalBuckets());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot plan the changes between snapshots " + startExclusive + " and "
                    + endInclusive + " of table " + tableName + ": " + e.getMessage(), e);
        }
        List<DataSplit> splits = new ArrayList<>(grouped.size());
        for (Map.Entry<PartitionBucket, List<DataFileMeta>> g : grouped.entrySet()) {
            PartitionBucket k = g.getKey();
            splits.add(new DataSplit(endInclusive, k.partition(), k.bucket(), totalBuckets.get(k), g.getValue(),
                    rawReadPolicy.rawConvertible(g.getValue())));
        }
        return new Plan(endInclusive, splits);
    }

    private IllegalArgumentException outOfRange(String why) {
        return new IllegalArgumentException("Cannot read the changes between snapshots " + startExclusive + " and "
                + endInclusive + " of table " + tableName + ": " + why + "; fix option 'incremental-between'");
    }
}
