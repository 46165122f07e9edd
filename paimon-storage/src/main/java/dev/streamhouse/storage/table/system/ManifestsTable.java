package dev.streamhouse.storage.table.system;

import static dev.streamhouse.storage.types.DataTypes.BIGINT;
import static dev.streamhouse.storage.types.DataTypes.STRING;

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.manifest.ManifestFileMeta;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.types.RowType;

import java.io.IOException;
import java.util.Collections;
import java.util.Iterator;
import java.util.Optional;

/**
 * {@code t$manifests}: the data manifests of the selected snapshot, base then delta, with partition
 * statistics as text (null when the manifest has none for every partition column).
 */
final class ManifestsTable extends MetadataTable {
    private static final RowType ROW_TYPE = columns(
            "file_name", STRING().notNull(),
            "file_size", BIGINT().notNull(),
            "num_added_files", BIGINT().notNull(),
            "num_deleted_files", BIGINT().notNull(),
            "schema_id", BIGINT().notNull(),
            "min_partition_stats", STRING(),
            "max_partition_stats", STRING());

    ManifestsTable(FileStoreTable table) {
        super(table);
    }

    @Override
    public String name() {
        return "manifests";
    }

    @Override
    public RowType rowType() {
        return ROW_TYPE;
    }

    @Override
    Iterator<InternalRow> rows() throws IOException {
        Optional<Snapshot> snapshot = SnapshotSelector.select(table);
        if (snapshot.isEmpty()) {
            return Collections.emptyIterator();
        }
        RowType partitionType = table.schema().partitionType();
        return LazyRows.of(table.snapshotEntries().dataManifests(snapshot.get()).iterator(),
                (ManifestFileMeta m) -> {
                    boolean hasStats = m.partitionStats() != null
                            && m.partitionStats().minValues().arity() == partitionType.fieldCount();
                    return GenericRow.of(
                            BinaryString.fromString(m.fileName()),
                            m.fileSize(),
                            m.numAddedFiles(),
                            m.numDeletedFiles(),
                            m.schemaId(),
                            hasStats ? BinaryString.fromString(
                                    MetadataStrings.partition(m.partitionStats().minValues(), partitionType)) : null,
                            hasStats ? BinaryString.fromString(
                                    MetadataStrings.partition(m.partitionStats().maxValues(), partitionType)) : null);
                }, "the manifests of table " + table.fullName());
    }
}
