package dev.streamhouse.storage.table.system;

import static dev.streamhouse.storage.types.DataTypes.BIGINT;
import static dev.streamhouse.storage.types.DataTypes.STRING;
import static dev.streamhouse.storage.types.DataTypes.TIMESTAMP;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.operation.FileTotals;
import dev.streamhouse.storage.operation.ManifestFilter;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.types.RowType;

import java.io.IOException;
import java.util.Collections;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;

/** {@code t$partitions}: totals of the live files per partition of the selected snapshot. */
final class PartitionsTable extends MetadataTable {
    private static final RowType ROW_TYPE = columns(
            "partition", STRING(),
            "record_count", BIGINT().notNull(),
            "file_size_in_bytes", BIGINT().notNull(),
            "file_count", BIGINT().notNull(),
            "last_update_time", TIMESTAMP(3));

    PartitionsTable(FileStoreTable table) {
        super(table);
    }

    @Override
    public String name() {
        return "partitions";
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
        Map<BinaryRow, FileTotals> totals =
                FileTotals.byPartition(table.snapshotEntries().liveEntries(snapshot.get(), ManifestFilter.ALL));
        RowType partitionType = table.schema().partitionType();
        return LazyRows.of(totals.entrySet().iterator(), e -> {
            FileTotals t = e.getValue();
            return GenericRow.of(
                    BinaryString.fromString(MetadataStrings.partition(e.getKey(), partitionType)),
                    t.recordCount(),
                    t.fileSizeInBytes(),
                    t.fileCount(),
                    t.lastCreationMillis() == null ? null : MetadataStrings.wallClockTime(t.lastCreationMillis()));
        }, "the partitions of table " + table.fullName());
    }
}
