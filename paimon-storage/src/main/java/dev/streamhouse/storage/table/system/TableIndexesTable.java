package dev.streamhouse.storage.table.system;

import static dev.streamhouse.storage.types.DataTypes.ARRAY;
import static dev.streamhouse.storage.types.DataTypes.BIGINT;
import static dev.streamhouse.storage.types.DataTypes.FIELD;
import static dev.streamhouse.storage.types.DataTypes.INT;
import static dev.streamhouse.storage.types.DataTypes.ROW;
import static dev.streamhouse.storage.types.DataTypes.STRING;

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.GenericArray;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalArray;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.index.DeletionVectorMeta;
import dev.streamhouse.storage.index.IndexFileMeta;
import dev.streamhouse.storage.index.IndexManifestEntry;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.types.RowType;

import java.io.IOException;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;

/**
 * {@code t$table_indexes}: the index files of the selected snapshot (see {@link SnapshotSelector}), as
 * its index manifest lists them and in that order: dynamic-bucket hash indexes ({@code HASH}) and
 * deletion vectors ({@code DELETION_VECTORS}), of any index type the manifest names. Empty when the
 * snapshot has no index manifest; a missing one is an error. {@code partition} is in the text form of
 * {@link MetadataStrings#partition}; {@code row_count} is the index file's own count (hashes of a
 * hash index, data files of a deletion-vector file); {@code dv_ranges} holds, for deletion vectors,
 * where each data file's vector lies ({@code f0} data file name, {@code f1} offset, {@code f2}
 * length, {@code _CARDINALITY} deleted rows or null) and is null for other index types.
 */
final class TableIndexesTable extends MetadataTable {
    /** The name after {@code $}. */
    static final String NAME = "table_indexes";

    private static final RowType DV_RANGE = ROW(
            FIELD(0, "f0", STRING().notNull()),
            FIELD(1, "f1", INT().notNull()),
            FIELD(2, "f2", INT().notNull()),
            FIELD(3, "_CARDINALITY", BIGINT()));

    private static final RowType ROW_TYPE = columns(
            "partition", STRING(),
            "bucket", INT().notNull(),
            "index_type", STRING().notNull(),
            "file_name", STRING().notNull(),
            "file_size", BIGINT().notNull(),
            "row_count", BIGINT().notNull(),
            "dv_ranges", ARRAY(DV_RANGE));

    TableIndexesTable(FileStoreTable table) {
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
        if (snapshot.isEmpty() || snapshot.get().indexManifest() == null) {
            return Collections.emptyIterator();
        }
        // A missing or unreadable index manifest fails naming it and the table (Paimon shows no rows).
        List<IndexManifestEntry> entries = table.indexManifestFile().read(snapshot.get().indexManifest());
        RowType partitionType = table.schema().partitionType();
        return LazyRows.of(entries.iterator(), entry -> toRow(entry, partitionType),
                "the index files of table " + table.fullName());
    }

    private static InternalRow toRow(IndexManifestEntry entry, RowType partitionType) {
        IndexFileMeta file = entry.indexFile();
        return GenericRow.of(
                BinaryString.fromString(MetadataStrings.partition(entry.partition(), partitionType)),
                entry.bucket(),
                BinaryString.fromString(file.indexType()),
                BinaryString.fromString(file.fileName()),
                file.fileSize(),
                file.rowCount(),
                ranges(file.deletionVectorRanges()));
    }

    private static InternalArray ranges(List<DeletionVectorMeta> ranges) {
        if (ranges == null) {
            return null;
        }
        Object[] rows = new Object[ranges.size()];
        for (int i = 0; i < rows.length; i++) {
            DeletionVectorMeta dv = ranges.get(i);
            rows[i] = GenericRow.of(BinaryString.fromString(dv.dataFileName()), dv.offset(), dv.length(),
                    dv.cardinality());
        }
        return new GenericArray(rows);
    }
}
