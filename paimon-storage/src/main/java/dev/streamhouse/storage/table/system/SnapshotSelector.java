package dev.streamhouse.storage.table.system;

import dev.streamhouse.storage.options.ScanOptions;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.snapshot.SnapshotManager;
import dev.streamhouse.storage.table.FileStoreTable;

import java.io.IOException;
import java.util.List;
import java.util.Optional;

/**
 * The snapshot a metadata table shows: the data table's {@code scan.snapshot-id} if set, else the
 * newest snapshot committed at or before {@code scan.timestamp-millis} if set (as
 * {@code FOR SYSTEM_TIME AS OF} sets it), else the latest. Empty when the table has no such snapshot
 * yet. The options come from the data table, with the dynamic options of the query applied.
 */
final class SnapshotSelector {
    private SnapshotSelector() {}

    static Optional<Snapshot> select(FileStoreTable table) throws IOException {
        SnapshotManager snapshots = table.snapshotManager();
        Long snapshotId = table.schema().tableOptions().get(ScanOptions.SCAN_SNAPSHOT_ID);
        if (snapshotId != null) {
            if (!snapshots.snapshotExists(snapshotId)) {
                throw new IllegalArgumentException("Cannot read the metadata of table " + table.fullName()
                        + " at snapshot " + snapshotId + " (option '" + ScanOptions.SCAN_SNAPSHOT_ID.key()
                        + "'): no such snapshot; existing snapshots are " + snapshots.listSnapshotIds());
            }
            return Optional.of(snapshots.snapshot(snapshotId));
        }
        Long millis = table.schema().tableOptions().get(ScanOptions.SCAN_TIMESTAMP_MILLIS);
        if (millis != null) {
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
}
