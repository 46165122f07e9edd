package dev.streamhouse.storage.table.source;

import dev.streamhouse.storage.maintenance.consumer.ConsumerManager;
import dev.streamhouse.storage.operation.SnapshotFinder;
import dev.streamhouse.storage.options.ScanOptions.StartupMode;
import dev.streamhouse.storage.options.ScanOptions;
import dev.streamhouse.storage.snapshot.ChangelogManager;
import dev.streamhouse.storage.snapshot.CommitKind;
import dev.streamhouse.storage.snapshot.ExpiredSnapshotException;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.snapshot.SnapshotManager;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.Optional;

/**
 * Decides where a streaming read starts ({@link StartingPoint}). A consumer's saved progress wins
 * ({@code consumer-id}, unless {@code consumer.ignore-progress}): the changes from its next snapshot.
 * Otherwise {@code scan.mode}:
 * <ul>
 *   <li>{@code default}: {@code from-timestamp} with {@code scan.timestamp-millis}, {@code from-snapshot}
 *       with {@code scan.snapshot-id}, else {@code latest-full};</li>
 *   <li>{@code latest-full} / {@code full}: the latest snapshot in full, then its successors' changes;
 *       waits for the first snapshot of an empty table;</li>
 *   <li>{@code latest}: the changes of the snapshots after the latest one (of every snapshot if the
 *       table has none yet);</li>
 *   <li>{@code from-snapshot}: the changes from {@code scan.snapshot-id} on (it may lie in the future);</li>
 *   <li>{@code from-snapshot-full}: {@code scan.snapshot-id} in full, then its successors' changes;
 *       waits while that snapshot lies in the future;</li>
 *   <li>{@code from-timestamp}: the changes of the first snapshot committed at or after
 *       {@code scan.timestamp-millis} and of every later one (of every snapshot committed after the
 *       start if all are older), starting on a retained long-lived changelog if that is late enough; waits for the first snapshot of an empty table and decides then;</li>
 *   <li>{@code compacted-full}: the latest COMPACT snapshot in full (the latest snapshot if none was
 *       compacted), then its successors' changes; waits for the first snapshot.</li>
 * </ul>
 * A start at an expired snapshot fails with {@link ExpiredSnapshotException} (when the changes are
 * planned, for change starts).
 */
final class StartingPoints {
    private static final Logger LOG = LoggerFactory.getLogger(StartingPoints.class);

    private final SnapshotManager snapshots;
    private final ChangelogManager changelogs;
    private final StartupMode mode;
    private final Long snapshotId;
    private final Long timestampMillis;
    private final ConsumerManager consumers;
    private final String consumerId;
    private final boolean ignoreConsumerProgress;
    private final String tableName;

    /**
     * @param configuredMode {@code scan.mode} as configured
     * @param snapshotId {@code scan.snapshot-id}, or null
     * @param timestampMillis {@code scan.timestamp-millis}, or null
     * @param consumerId {@code consumer-id}, or null
     * @throws IllegalArgumentException if the mode needs an option that is not set
     */
    StartingPoints(SnapshotManager snapshots, ChangelogManager changelogs, StartupMode configuredMode,
            Long snapshotId, Long timestampMillis, ConsumerManager consumers, String consumerId,
            boolean ignoreConsumerProgress, String tableName) {
        this.snapshots = snapshots;
        this.changelogs = changelogs;
        this.snapshotId = snapshotId;
        this.timestampMillis = timestampMillis;
        this.consumers = consumers;
        this.consumerId = consumerId;
        this.ignoreConsumerProgress = ignoreConsumerProgress;
        this.tableName = tableName;
        this.mode = resolve(configuredMode);
        if ((mode == StartupMode.FROM_SNAPSHOT || mode == StartupMode.FROM_SNAPSHOT_FULL) && snapshotId == null) {
            throw missing(ScanOptions.SCAN_SNAPSHOT_ID.key());
        }
        if (mode == StartupMode.FROM_TIMESTAMP && timestampMillis == null) {
            throw missing(ScanOptions.SCAN_TIMESTAMP_MILLIS.key());
        }
        if (snapshotId != null && snapshotId < 1) {
            throw new IllegalArgumentException("Cannot stream-read table " + tableName + " from snapshot "
                    + snapshotId + ": snapshot ids start at 1; fix option '" + ScanOptions.SCAN_SNAPSHOT_ID.key() + "'");
        }
    }

    private IllegalArgumentException missing(String key) {
        return new IllegalArgumentException("Cannot stream-read table " + tableName + " with '"
                + ScanOptions.SCAN_MODE.key() + "' = '" + mode + "': option '" + key + "' is not set");
    }

    private StartupMode resolve(StartupMode configured) {
        switch (configured) {
            case DEFAULT:
                if (timestampMillis != null) {
                    return StartupMode.FROM_TIMESTAMP;
                }
                return snapshotId != null ? StartupMode.FROM_SNAPSHOT : StartupMode.LATEST_FULL;
            case FULL:
                return StartupMode.LATEST_FULL;
            default:
                return configured;
        }
    }

    /** The mode after resolving {@code default} and {@code full}. */
    StartupMode mode() {
        return mode;
    }

    /** Where to start, or empty if that cannot be decided yet (no snapshot to start from): ask again. */
    Optional<StartingPoint> startingPoint() throws IOException {
        if (consumerId != null && !ignoreConsumerProgress) {
            Optional<Long> next = consumers.nextSnapshot(consumerId);
            if (next.isPresent()) {
                LOG.info("Streaming read of table {} resumes consumer '{}' at snapshot {}", tableName, consumerId,
                        next.get());
                return Optional.of(StartingPoint.changesFrom(next.get()));
            }
        }
        Optional<StartingPoint> start = fromMode();
        start.ifPresent(s -> LOG.info("Streaming read of table {} starts with '{}' = '{}': {}", tableName,
                ScanOptions.SCAN_MODE.key(), mode, s));
        return start;
    }

    private Optional<StartingPoint> fromMode() throws IOException {
        switch (mode) {
            case LATEST_FULL: {
                Long latest = snapshots.latestSnapshotId();
                return latest == null ? Optional.empty() : Optional.of(StartingPoint.fullThenChanges(latest));
            }
            case LATEST: {
                Long latest = snapshots.latestSnapshotId();
                return Optional.of(StartingPoint.changesFrom(latest == null ? 1 : latest + 1));
            }
            case FROM_SNAPSHOT:
                return Optional.of(StartingPoint.changesFrom(snapshotId));
            case FROM_SNAPSHOT_FULL:
                return fullAt(snapshotId);
            case FROM_TIMESTAMP: {
                Long first = SnapshotFinder.firstAtOrAfter(snapshots, timestampMillis, tableName);
                if (first != null && first.equals(snapshots.earliestSnapshotId())) {
                    first = firstRetainedChangelogAtOrAfter(first);
                }
                return first == null ? Optional.empty() : Optional.of(StartingPoint.changesFrom(first));
            }
            case COMPACTED_FULL: {
                Optional<Snapshot> compacted = SnapshotFinder.latestOfKind(snapshots, CommitKind.COMPACT);
                if (compacted.isPresent()) {
                    return Optional.of(StartingPoint.fullThenChanges(compacted.get().id()));
                }
                Long latest = snapshots.latestSnapshotId();
                return latest == null ? Optional.empty() : Optional.of(StartingPoint.fullThenChanges(latest));
            }
            default:
                throw new IllegalStateException("Unresolved scan mode " + mode);
        }
    }

    /**
     * The first long-lived changelog (below {@code earliestSnapshot}) committed at or after
     * {@code scan.timestamp-millis}, else {@code earliestSnapshot}: reads the retained entries from the
     * newest down, stopping at the first older one.
     */
    private long firstRetainedChangelogAtOrAfter(long earliestSnapshot) throws IOException {
        Long earliestChangelog = changelogs.earliestChangelogId();
        long first = earliestSnapshot;
        if (earliestChangelog == null) {
            return first;
        }
        for (long id = earliestSnapshot - 1; id >= earliestChangelog; id--) {
            Optional<Snapshot> entry = changelogs.retainedChangelog(id);
            if (entry.isEmpty() || entry.get().timeMillis() < timestampMillis) {
                break;
            }
            first = id;
        }
        return first;
    }

    private Optional<StartingPoint> fullAt(long id) throws IOException {
        if (snapshots.snapshotExists(id)) {
            return Optional.of(StartingPoint.fullThenChanges(id));
        }
        Long earliest = snapshots.earliestSnapshotId();
        if (earliest != null && id < earliest) {
            throw new ExpiredSnapshotException(tableName, id, earliest);
        }
        return Optional.empty();
    }
}
