package dev.streamhouse.storage.table.system;

import static dev.streamhouse.storage.types.DataTypes.BIGINT;
import static dev.streamhouse.storage.types.DataTypes.INT;
import static dev.streamhouse.storage.types.DataTypes.STRING;
import static dev.streamhouse.storage.types.DataTypes.TIMESTAMP;

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.operation.FileTotals;
import dev.streamhouse.storage.operation.ManifestFilter;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.manifest.PartitionBucket;
import dev.streamhouse.storage.types.RowType;

import java.io.IOException;
import java.util.Collections;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;

/** {@code t$buckets}: totals of the live files per (partition, bucket) of the selected snapshot. */
final class BucketsTable extends MetadataTable {
    private static final RowType ROW_TYPE = columns(
            "partition", STRING(),
            "bucket", INT().notNull(),
            "record_count", BIGINT().notNull(),
            "file_size_in_bytes", BIGINT().notNull(),
            "file_count", BIGINT().notNull(),
            "last_update_time", TIMESTAMP(3));

    BucketsTable(FileStoreTable table) {
        super(table);
    }

    @Override
    public String name() {
        return "buckets";
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
        Map<PartitionBucket, FileTotals> totals =
                FileTotals.byBucket(table.snapshotEntries().liveEntries(snapshot.get(), ManifestFilter.ALL));
        RowType partitionType = table.schema().partitionType();
        return LazyRows.of(totals.entrySet().iterator(), e -> {
            FileTotals t = e.getValue();
            return GenericRow.of(
                    BinaryString.fromString(MetadataStrings.partition(e.getKey().partition(), partitionType)),
                    e.getKey().bucket(),
                    t.recordCount(),
                    t.fileSizeInBytes(),
                    t.fileCount(),
                    t.lastCreationMillis() == null ? null : MetadataStrings.wallClockTime(t.lastCreationMillis()));
        }, "the buckets of table " + table.fullName());
    }
}
