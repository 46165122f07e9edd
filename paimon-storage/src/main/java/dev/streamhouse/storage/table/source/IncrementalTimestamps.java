package dev.streamhouse.storage.table.source;

import dev.streamhouse.storage.options.OptionValues;
import dev.streamhouse.storage.options.ScanOptions;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.snapshot.SnapshotManager;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Iterator;

/**
 * {@code incremental-between-timestamp = 't1,t2'} as the snapshot range Apache Paimon 1.3.1 reads:
 * the changes of the snapshots committed after {@code t1} up to and including {@code t2}. Each time is
 * epoch millis or a local date-time ({@code yyyy-MM-dd HH:mm:ss[.SSS]}, this JVM's time zone). The
 * start is the latest snapshot at or before {@code t1} (the one before the earliest if the earliest is
 * younger), the end the latest at or before {@code t2} (the latest if none is). The range is empty when
 * the table has no snapshot, {@code t1 = t2}, {@code t1} is after the latest commit or {@code t2}
 * before the earliest.
 */
final class IncrementalTimestamps {
    private IncrementalTimestamps() {}

    /**
     * @return {start exclusive, end inclusive} snapshot ids; equal ids for an empty range
     * @throws IllegalArgumentException if the value is not two times or {@code t2 < t1}
     */
    static long[] range(SnapshotManager snapshots, String value, String tableName) {
        String[] parts = value.split(",");
        if (parts.length != 2) {
            throw invalid(value, tableName, "it must be 't1,t2', a start (exclusive) and an end time");
        }
        long start = time(parts[0].trim(), value, tableName);
        long end = time(parts[1].trim(), value, tableName);
        if (end < start) {
            throw invalid(value, tableName, "the end time " + end + " is before the start time " + start);
        }
        try {
            Long earliestId = snapshots.earliestSnapshotId();
            Long latestId = snapshots.latestSnapshotId();
            if (earliestId == null || latestId == null) {
                return new long[] {0, 0};
            }
            Snapshot earliest = snapshots.snapshot(earliestId);
            Snapshot latest = snapshots.snapshot(latestId);
            if (start == end || start > latest.timeMillis() || end < earliest.timeMillis()) {
                return new long[] {latestId, latestId};
            }
            long from = earliest.timeMillis() > start ? earliestId - 1 : latestAtOrBefore(snapshots, earliestId, latestId, start);
            long to = latestAtOrBefore(snapshots, earliestId, latestId, end);
            return new long[] {from, Math.max(from, to)};
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the snapshots of table " + tableName, e);
        }
    }

    private static long latestAtOrBefore(SnapshotManager snapshots, long earliestId, long latestId, long millis) {
        Iterator<Snapshot> it = snapshots.snapshotsDescending(earliestId, latestId);
        while (it.hasNext()) {
            Snapshot s = it.next();
            if (s.timeMillis() <= millis) {
                return s.id();
            }
        }
        return latestId;
    }

    private static long time(String text, String value, String tableName) {
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException notMillis) {
            try {
                return OptionValues.localTimestampMillis(text);
            } catch (IllegalArgumentException e) {
                throw invalid(value, tableName, "'" + text + "' is neither epoch millis nor 'yyyy-MM-dd HH:mm:ss'");
            }
        }
    }

    private static IllegalArgumentException invalid(String value, String tableName, String why) {
        return new IllegalArgumentException("Cannot read table " + tableName + ": option '"
                + ScanOptions.INCREMENTAL_BETWEEN_TIMESTAMP.key() + "' = '" + value + "': " + why);
    }
}
