package dev.streamhouse.storage.table.system;

import static dev.streamhouse.storage.types.DataTypes.BIGINT;
import static dev.streamhouse.storage.types.DataTypes.STRING;
import static dev.streamhouse.storage.types.DataTypes.TIMESTAMP;

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.snapshot.SnapshotManager;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.types.RowType;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.Iterator;

/**
 * {@code t$snapshots}: one row per snapshot file, ascending by id, each snapshot read only when its
 * row is reached (one that expires meanwhile is skipped). {@code commit_time} is in the JVM's time zone.
 */
final class SnapshotsTable extends MetadataTable {
    private static final RowType ROW_TYPE = columns(
            "snapshot_id", BIGINT().notNull(),
            "schema_id", BIGINT().notNull(),
            "commit_user", STRING().notNull(),
            "commit_identifier", BIGINT().notNull(),
            "commit_kind", STRING().notNull(),
            "commit_time", TIMESTAMP(3).notNull(),
            "base_manifest_list", STRING().notNull(),
            "delta_manifest_list", STRING().notNull(),
            "changelog_manifest_list", STRING(),
            "total_record_count", BIGINT(),
            "delta_record_count", BIGINT(),
            "changelog_record_count", BIGINT(),
            "watermark", BIGINT());

    SnapshotsTable(FileStoreTable table) {
        super(table);
    }

    @Override
    public String name() {
        return "snapshots";
    }

    @Override
    public RowType rowType() {
        return ROW_TYPE;
    }

    @Override
    Iterator<InternalRow> rows() throws IOException {
        SnapshotManager snapshots = table.snapshotManager();
        return LazyRows.of(snapshots.listSnapshotIds().iterator(), id -> {
            try {
                return toRow(snapshots.snapshot(id));
            } catch (FileNotFoundException expiredMeanwhile) {
                return null;
            }
        }, "the snapshots of table " + table.fullName());
    }

    private static InternalRow toRow(Snapshot s) {
        return GenericRow.of(
                s.id(),
                s.schemaId(),
                BinaryString.fromString(s.commitUser()),
                s.commitIdentifier(),
                BinaryString.fromString(s.commitKind().name()),
                MetadataStrings.localTime(s.timeMillis()),
                BinaryString.fromString(s.baseManifestList()),
                BinaryString.fromString(s.deltaManifestList()),
                s.changelogManifestList() == null ? null : BinaryString.fromString(s.changelogManifestList()),
                s.totalRecordCount(),
                s.deltaRecordCount(),
                s.changelogRecordCount(),
                s.watermark());
    }
}
