package dev.streamhouse.storage.table.system;

import static dev.streamhouse.storage.types.DataTypes.BIGINT;
import static dev.streamhouse.storage.types.DataTypes.INT;
import static dev.streamhouse.storage.types.DataTypes.STRING;

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.maintenance.health.TableLayout;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.types.RowType;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;

/**
 * {@code t$levels}: one row per (partition, bucket, level) of the selected snapshot's live files (see
 * {@link SnapshotSelector}): how many files, rows and bytes, the smallest, mean and largest file, and
 * the deleted rows ({@code deleteRowCount} of the files plus their deletion-vector cardinalities),
 * from metadata only ({@link TableLayout}). Ordered by partition, bucket and level; {@code partition}
 * in the text form of {@code t$files}. An append table has only level 0.
 */
final class LevelsTable extends MetadataTable {
    /** The name after {@code $}. */
    static final String NAME = "levels";

    private static final RowType ROW_TYPE = columns(
            "partition", STRING(),
            "bucket", INT().notNull(),
            "level", INT().notNull(),
            "file_count", BIGINT().notNull(),
            "record_count", BIGINT().notNull(),
            "file_size_in_bytes", BIGINT().notNull(),
            "min_file_size", BIGINT().notNull(),
            "avg_file_size", BIGINT().notNull(),
            "max_file_size", BIGINT().notNull(),
            "deleted_record_count", BIGINT().notNull());

    LevelsTable(FileStoreTable table) {
        super(table);
    }

    @Override
    public String name() {
        return NAME;
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
        List<InternalRow> out = new ArrayList<>();
        for (TableLayout.BucketStats b : TableLayout.of(table, snapshot.get()).buckets()) {
            BinaryString partition = BinaryString.fromString(MetadataStrings.partition(b.partition(), partitionType));
            for (TableLayout.LevelStats l : b.levels()) {
                out.add(GenericRow.of(partition, b.bucket(), l.level(), l.fileCount(), l.rowCount(), l.bytes(),
                        l.minFileBytes(), l.avgFileBytes(), l.maxFileBytes(), l.deletedRows()));
            }
        }
        return out.iterator();
    }
}
