package dev.streamhouse.storage.table.source;

import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.maintenance.tag.TagManager;
import dev.streamhouse.storage.maintenance.tag.TagPeriod;
import dev.streamhouse.storage.operation.FileStoreScan;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.options.ScanOptions;
import dev.streamhouse.storage.options.TagOptions;
import dev.streamhouse.storage.schema.TableSchema;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.snapshot.SnapshotManager;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Which two snapshots a batch read of changes compares, from the read's options: {@code incremental-between}
 * (snapshot ids or two tags), {@code incremental-between-timestamp} and {@code incremental-to-auto-tag}, and the
 * {@link IncrementalDiffScan} of those that Apache Paimon 1.3.1 reads as a difference of two states.
 */
final class DiffScans {
    private final FileIO fileIO;
    private final Path tableRoot;
    private final TableSchema schema;
    private final String tableName;
    private final Supplier<FileStoreScan> scans;
    private final SnapshotTableScan.RawReadPolicy rawReadPolicy;
    private final boolean deletionVectors;

    /** @param scans new scans of the table with the read's partition filter */
    DiffScans(FileIO fileIO, Path tableRoot, TableSchema schema, String tableName, Supplier<FileStoreScan> scans,
            SnapshotTableScan.RawReadPolicy rawReadPolicy, boolean deletionVectors) {
        this.fileIO = fileIO;
        this.tableRoot = tableRoot;
        this.schema = schema;
        this.tableName = tableName;
        this.scans = scans;
        this.rawReadPolicy = rawReadPolicy;
        this.deletionVectors = deletionVectors;
    }

    /**
     * The scan of the difference between two snapshots' states ({@link IncrementalDiffScan}), as Paimon 1.3.1
     * plans it: {@code incremental-between} naming two tags (whatever the scan mode), or two snapshot ids or
     * {@code incremental-between-timestamp} with {@code incremental-between-scan-mode} = {@code diff}; null for
     * the other reads.
     */
    TableScan scanOrNull() {
        Options options = schema.tableOptions();
        String between = options.get(ScanOptions.INCREMENTAL_BETWEEN);
        String betweenTimes = options.get(ScanOptions.INCREMENTAL_BETWEEN_TIMESTAMP);
        boolean diffMode = options.get(ScanOptions.INCREMENTAL_BETWEEN_SCAN_MODE)
                == ScanOptions.IncrementalBetweenScanMode.DIFF;
        SnapshotManager snapshots = scans.get().snapshotManager();
        Snapshot start;
        Snapshot end;
        try {
            String toAutoTag = options.get(ScanOptions.INCREMENTAL_TO_AUTO_TAG);
            if (toAutoTag != null) {
                Snapshot[] pair = autoTagPair(toAutoTag.trim(), options);
                if (pair == null) {
                    TableScan.Plan empty = new TableScan.Plan(null, List.of());
                    return () -> empty;
                }
                start = pair[0];
                end = pair[1];
            } else if (between != null) {
                String[] parts = between.split(",");
                TagManager tags = new TagManager(fileIO, tableRoot);
                if (parts.length == 2 && tags.exists(parts[0].trim()) && tags.exists(parts[1].trim())) {
                    start = TagReads.taggedSnapshot(fileIO, tableRoot, parts[0].trim(), tableName);
                    end = TagReads.taggedSnapshot(fileIO, tableRoot, parts[1].trim(), tableName);
                    if (end.id() < start.id()) {
                        throw new IllegalArgumentException("Cannot read table " + tableName + " with option '"
                                + ScanOptions.INCREMENTAL_BETWEEN.key() + "' = '" + between + "': the end tag '"
                                + parts[1].trim() + "' (snapshot " + end.id() + ") is older than the start tag '"
                                + parts[0].trim() + "' (snapshot " + start.id() + ")");
                    }
                } else if (ScanOptions.incrementalBetweenIds(between) == null) {
                    throw new IllegalArgumentException("Cannot read table " + tableName + " with option '"
                            + ScanOptions.INCREMENTAL_BETWEEN.key() + "' = '" + between + "': it names neither two "
                            + "existing tags nor two snapshot ids; the $tags system table lists the tags");
                } else if (!diffMode) {
                    return null;
                } else {
                    long[] ids = incrementalRange(schema, tableName);
                    start = existingSnapshot(snapshots, ids[0], between);
                    end = existingSnapshot(snapshots, ids[1], between);
                }
            } else if (betweenTimes != null && diffMode) {
                long[] range = IncrementalTimestamps.range(snapshots, betweenTimes, tableName);
                Long earliest = snapshots.earliestSnapshotId();
                if (earliest == null || range[0] == range[1]) {
                    TableScan.Plan empty = new TableScan.Plan(range[1] == 0 ? null : range[1], List.of());
                    return () -> empty;
                }
                start = snapshots.snapshot(Math.max(range[0], earliest));
                end = snapshots.snapshot(range[1]);
            } else {
                return null;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot plan the difference read of table " + tableName + ": "
                    + e.getMessage(), e);
        }
        if (deletionVectors) {
            throw new UnsupportedOperationException("Cannot read the difference between snapshots " + start.id()
                    + " and " + end.id() + " of table " + tableName + " (option '"
                    + ScanOptions.INCREMENTAL_BETWEEN.key() + "' with two tags, or '"
                    + ScanOptions.INCREMENTAL_BETWEEN_SCAN_MODE.key() + "' = 'diff'): diff reads of tables with "
                    + "'deletion-vectors.enabled' are not implemented yet; read each tag with 'scan.tag-name'");
        }
        return new IncrementalDiffScan(scans, start, end, schema.hasPrimaryKey(), rawReadPolicy, tableName);
    }

    /**
     * The snapshots of {@code incremental-to-auto-tag}: the automatic tag before {@code endTag} (by the period its
     * name stands for) and {@code endTag}'s; null when {@code endTag} does not exist or no earlier automatic tag
     * does (an empty read, as in Paimon 1.3.1).
     *
     * @throws IllegalArgumentException if {@code endTag} is not an automatic tag name of {@code tag.creation-period}
     */
    private Snapshot[] autoTagPair(String endTag, Options options) throws IOException {
        TagPeriod period = TagPeriod.of(options.get(TagOptions.TAG_CREATION_PERIOD),
                options.get(TagOptions.TAG_PERIOD_FORMATTER), options.get(TagOptions.TAG_CREATION_PERIOD_DURATION));
        if (!period.isAutoTag(endTag)) {
            throw new IllegalArgumentException("Cannot read table " + tableName + " with option '"
                    + ScanOptions.INCREMENTAL_TO_AUTO_TAG.key() + "' = '" + endTag + "': it is not the name of an "
                    + "automatic tag of 'tag.creation-period' = '" + options.get(TagOptions.TAG_CREATION_PERIOD) + "'");
        }
        TagManager tags = new TagManager(fileIO, tableRoot);
        Optional<dev.streamhouse.storage.maintenance.tag.Tag> end = tags.tag(endTag);
        if (end.isEmpty()) {
            return null;
        }
        java.time.LocalDateTime endTime = period.periodStart(endTag);
        TagManager.NamedTag previous = null;
        java.time.LocalDateTime previousTime = null;
        for (TagManager.NamedTag t : tags.tags()) {
            if (!period.isAutoTag(t.name())) {
                continue;
            }
            java.time.LocalDateTime time = period.periodStart(t.name());
            if (time.isBefore(endTime) && (previousTime == null || time.isAfter(previousTime))) {
                previous = t;
                previousTime = time;
            }
        }
        return previous == null ? null : new Snapshot[] {previous.tag().snapshot(), end.get().snapshot()};
    }

    private Snapshot existingSnapshot(SnapshotManager snapshots, long id, String between) throws IOException {
        if (!snapshots.snapshotExists(id)) {
            throw new IllegalArgumentException("Cannot read the difference between snapshots of table " + tableName
                    + " with option '" + ScanOptions.INCREMENTAL_BETWEEN.key() + "' = '" + between + "': snapshot "
                    + id + " does not exist (the retained snapshots are " + snapshots.earliestSnapshotId() + " to "
                    + snapshots.latestSnapshotId() + "; a diff compares two existing snapshots)");
        }
        return snapshots.snapshot(id);
    }

    /** {@code incremental-between} as {start exclusive, end inclusive}, or null when unset. */
    static long[] incrementalRange(TableSchema schema, String tableName) {
        String value = schema.tableOptions().get(ScanOptions.INCREMENTAL_BETWEEN);
        if (value == null) {
            return null;
        }
        String[] parts = value.split(",");
        long[] range = new long[2];
        try {
            if (parts.length != 2) {
                throw new NumberFormatException("expected two values");
            }
            range[0] = Long.parseLong(parts[0].trim());
            range[1] = Long.parseLong(parts[1].trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("Cannot read table " + tableName + ": option '"
                    + ScanOptions.INCREMENTAL_BETWEEN.key() + "' = '" + value + "' is not 'start,end' with two "
                    + "snapshot ids or two existing tags", e);
        }
        if (range[0] < 0 || range[1] < range[0]) {
            throw new IllegalArgumentException("Cannot read table " + tableName + ": option '"
                    + ScanOptions.INCREMENTAL_BETWEEN.key() + "' = '" + value + "' must name a start snapshot >= 0 "
                    + "and an end snapshot >= the start");
        }
        return range;
    }
}
