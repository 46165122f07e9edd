package dev.streamhouse.flink.catalog.system;

import static org.apache.flink.table.api.DataTypes.BIGINT;
import static org.apache.flink.table.api.DataTypes.FIELD;
import static org.apache.flink.table.api.DataTypes.ROW;
import static org.apache.flink.table.api.DataTypes.STRING;
import static org.apache.flink.table.api.DataTypes.TIMESTAMP;

import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.snapshot.SnapshotManager;
import dev.streamhouse.storage.table.FileStoreTable;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.RowType;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** {@code t$snapshots}: one row per snapshot file, ascending by id. {@code commit_time} is in the JVM's time zone. */
final class SnapshotsTable implements SystemTable {
    private static final long serialVersionUID = 1L;

    private static final RowType ROW_TYPE = (RowType) ROW(
            FIELD("snapshot_id", BIGINT().notNull()),
            FIELD("schema_id", BIGINT().notNull()),
            FIELD("commit_user", STRING().notNull()),
            FIELD("commit_identifier", BIGINT().notNull()),
            FIELD("commit_kind", STRING().notNull()),
            FIELD("commit_time", TIMESTAMP(3).notNull()),
            FIELD("base_manifest_list", STRING().notNull()),
            FIELD("delta_manifest_list", STRING().notNull()),
            FIELD("changelog_manifest_list", STRING()),
            FIELD("total_record_count", BIGINT()),
            FIELD("delta_record_count", BIGINT()),
            FIELD("changelog_record_count", BIGINT()),
            FIELD("watermark", BIGINT())).notNull().getLogicalType();

    @Override
    public String name() {
        return "snapshots";
    }

    @Override
    public RowType rowType() {
        return ROW_TYPE;
    }

    @Override
    public List<RowData> rows(FileStoreTable table, Map<String, String> dynamicOptions) throws IOException {
        SnapshotManager snapshots = table.snapshotManager();
        List<RowData> out = new ArrayList<>();
        for (long id : snapshots.listSnapshotIds()) {
            Snapshot s;
            try {
                s = snapshots.snapshot(id);
            } catch (FileNotFoundException expiredMeanwhile) {
                continue;
            }
            out.add(GenericRowData.of(
                    s.id(),
                    s.schemaId(),
                    StringData.fromString(s.commitUser()),
                    s.commitIdentifier(),
                    StringData.fromString(s.commitKind().name()),
                    MetadataStrings.localTime(s.timeMillis()),
                    StringData.fromString(s.baseManifestList()),
                    StringData.fromString(s.deltaManifestList()),
                    StringData.fromString(s.changelogManifestList()),
                    s.totalRecordCount(),
                    s.deltaRecordCount(),
                    s.changelogRecordCount(),
                    s.watermark()));
        }
        return out;
    }
}
