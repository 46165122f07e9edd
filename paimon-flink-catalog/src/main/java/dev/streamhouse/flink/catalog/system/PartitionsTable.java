package dev.streamhouse.flink.catalog.system;

import static org.apache.flink.table.api.DataTypes.BIGINT;
import static org.apache.flink.table.api.DataTypes.FIELD;
import static org.apache.flink.table.api.DataTypes.ROW;
import static org.apache.flink.table.api.DataTypes.STRING;
import static org.apache.flink.table.api.DataTypes.TIMESTAMP;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.operation.ManifestFilter;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.table.FileStoreTable;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.RowType;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code t$partitions}: per partition of the selected snapshot, the records (before merging keys),
 * bytes and number of its live files and the newest file creation time. An unpartitioned table has
 * one row with partition {@code {}} once it has files.
 */
final class PartitionsTable implements SystemTable {
    private static final long serialVersionUID = 1L;

    private static final RowType ROW_TYPE = (RowType) ROW(
            FIELD("partition", STRING()),
            FIELD("record_count", BIGINT().notNull()),
            FIELD("file_size_in_bytes", BIGINT().notNull()),
            FIELD("file_count", BIGINT().notNull()),
            FIELD("last_update_time", TIMESTAMP(3))).notNull().getLogicalType();

    @Override
    public String name() {
        return "partitions";
    }

    @Override
    public RowType rowType() {
        return ROW_TYPE;
    }

    @Override
    public List<RowData> rows(FileStoreTable table, Map<String, String> dynamicOptions) throws IOException {
        Optional<Snapshot> snapshot = SnapshotSelector.select(table, dynamicOptions);
        if (snapshot.isEmpty()) {
            return List.of();
        }
        Map<BinaryRow, FileTotals> totals =
                FileTotals.byPartition(table.snapshotEntries().liveEntries(snapshot.get(), ManifestFilter.ALL));
        List<RowData> out = new ArrayList<>();
        for (Map.Entry<BinaryRow, FileTotals> e : totals.entrySet()) {
            FileTotals t = e.getValue();
            out.add(GenericRowData.of(
                    StringData.fromString(MetadataStrings.partition(e.getKey(), table.schema().partitionType())),
                    t.recordCount(),
                    t.fileSizeInBytes(),
                    t.fileCount(),
                    t.lastCreationMillis() == null ? null : MetadataStrings.wallClockTime(t.lastCreationMillis())));
        }
        return out;
    }
}
