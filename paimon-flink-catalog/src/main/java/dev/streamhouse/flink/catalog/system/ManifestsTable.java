package dev.streamhouse.flink.catalog.system;

import static org.apache.flink.table.api.DataTypes.BIGINT;
import static org.apache.flink.table.api.DataTypes.FIELD;
import static org.apache.flink.table.api.DataTypes.ROW;
import static org.apache.flink.table.api.DataTypes.STRING;

import dev.streamhouse.storage.manifest.ManifestFileMeta;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.types.RowType;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code t$manifests}: the data manifests of the selected snapshot, base manifests first, with the
 * partition range each covers ({@code {...}} like partitions).
 */
final class ManifestsTable implements SystemTable {
    private static final long serialVersionUID = 1L;

    private static final org.apache.flink.table.types.logical.RowType ROW_TYPE =
            (org.apache.flink.table.types.logical.RowType) ROW(
                    FIELD("file_name", STRING().notNull()),
                    FIELD("file_size", BIGINT().notNull()),
                    FIELD("num_added_files", BIGINT().notNull()),
                    FIELD("num_deleted_files", BIGINT().notNull()),
                    FIELD("schema_id", BIGINT().notNull()),
                    FIELD("min_partition_stats", STRING()),
                    FIELD("max_partition_stats", STRING())).notNull().getLogicalType();

    @Override
    public String name() {
        return "manifests";
    }

    @Override
    public org.apache.flink.table.types.logical.RowType rowType() {
        return ROW_TYPE;
    }

    @Override
    public List<RowData> rows(FileStoreTable table, Map<String, String> dynamicOptions) throws IOException {
        Optional<Snapshot> snapshot = SnapshotSelector.select(table, dynamicOptions);
        if (snapshot.isEmpty()) {
            return List.of();
        }
        RowType partitionType = table.schema().partitionType();
        List<RowData> out = new ArrayList<>();
        for (ManifestFileMeta m : table.snapshotEntries().dataManifests(snapshot.get())) {
            boolean hasStats = m.partitionStats() != null
                    && m.partitionStats().minValues().arity() == partitionType.fieldCount();
            out.add(GenericRowData.of(
                    StringData.fromString(m.fileName()),
                    m.fileSize(),
                    m.numAddedFiles(),
                    m.numDeletedFiles(),
                    m.schemaId(),
                    hasStats ? StringData.fromString(
                            MetadataStrings.partition(m.partitionStats().minValues(), partitionType)) : null,
                    hasStats ? StringData.fromString(
                            MetadataStrings.partition(m.partitionStats().maxValues(), partitionType)) : null));
        }
        return out;
    }
}
