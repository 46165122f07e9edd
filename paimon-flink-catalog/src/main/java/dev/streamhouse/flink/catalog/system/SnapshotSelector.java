package dev.streamhouse.flink.catalog.system;

import dev.streamhouse.flink.catalog.TimeTravelOptions;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.snapshot.SnapshotManager;
import dev.streamhouse.storage.table.FileStoreTable;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The snapshot a metadata table shows: {@code scan.snapshot-id} if given, else the newest snapshot
 * committed at or before {@code scan.timestamp-millis} if given (as {@code FOR SYSTEM_TIME AS OF}
 * sets it), else the latest. Empty when the table has no such snapshot yet.
 */
final class SnapshotSelector {
    private static final String SCAN_SNAPSHOT_ID = TimeTravelOptions.SCAN_SNAPSHOT_ID;
    private static final String SCAN_TIMESTAMP_MILLIS = TimeTravelOptions.SCAN_TIMESTAMP_MILLIS;

    private SnapshotSelector() {}

    static Optional<Snapshot> select(FileStoreTable table, Map<String, String> dynamicOptions) throws IOException {
        SnapshotManager snapshots = table.snapshotManager();
        String id = option(table, dynamicOptions, SCAN_SNAPSHOT_ID);
        if (id != null) {
            long snapshotId = parseLong(id, SCAN_SNAPSHOT_ID);
            if (!snapshots.snapshotExists(snapshotId)) {
                throw new IllegalArgumentException("Cannot read the metadata of table " + table.fullName()
                        + " at snapshot " + snapshotId + " (option '" + SCAN_SNAPSHOT_ID + "'): no such snapshot; "
                        + "existing snapshots are " + snapshots.listSnapshotIds());
            }
            return Optional.of(snapshots.snapshot(snapshotId));
        }
        String timestamp = option(table, dynamicOptions, SCAN_TIMESTAMP_MILLIS);
        if (timestamp != null) {
            long millis = parseLong(timestamp, SCAN_TIMESTAMP_MILLIS);
            List<Long> ids = snapshots.listSnapshotIds();
            for (int i = ids.size() - 1; i >= 0; i--) {
                Snapshot s = snapshots.snapshot(ids.get(i));
                if (s.timeMillis() <= millis) {
                    return Optional.of(s);
                }
            }
            return Optional.empty();
        }
        return snapshots.latestSnapshot();
    }

    private static String option(FileStoreTable table, Map<String, String> dynamicOptions, String key) {
        String value = dynamicOptions.get(key);
        return value != null ? value : table.options().get(key);
    }

    private static long parseLong(String value, String key) {
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("Invalid value '" + value + "' for option '" + key
                    + "': expected a whole number", e);
        }
    }
}
