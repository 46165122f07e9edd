package dev.streamhouse.storage.table.system;

import static dev.streamhouse.storage.types.DataTypes.BIGINT;
import static dev.streamhouse.storage.types.DataTypes.INT;
import static dev.streamhouse.storage.types.DataTypes.STRING;
import static dev.streamhouse.storage.types.DataTypes.TIMESTAMP;

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.manifest.ManifestEntry;
import dev.streamhouse.storage.operation.ManifestFilter;
import dev.streamhouse.storage.schema.TableSchema;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.types.RowType;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;

/**
 * {@code t$files}: the live data files of the selected snapshot (see {@link SnapshotSelector}), in
 * manifest order. Partition, key and statistics columns use the text forms of {@link MetadataStrings};
 * {@code file_path} is the full path; {@code creation_time} is the writer's wall-clock time.
 */
final class FilesTable extends MetadataTable {
    private static final RowType ROW_TYPE = columns(
            "partition", STRING(),
            "bucket", INT().notNull(),
            "file_path", STRING().notNull(),
            "file_format", STRING().notNull(),
            "schema_id", BIGINT().notNull(),
            "level", INT().notNull(),
            "record_count", BIGINT().notNull(),
            "file_size_in_bytes", BIGINT().notNull(),
            "min_key", STRING(),
            "max_key", STRING(),
            "null_value_counts", STRING().notNull(),
            "min_value_stats", STRING().notNull(),
            "max_value_stats", STRING().notNull(),
            "min_sequence_number", BIGINT(),
            "max_sequence_number", BIGINT(),
            "creation_time", TIMESTAMP(3),
            "deleteRowCount", BIGINT(),
            "file_source", STRING());

    FilesTable(FileStoreTable table) {
        super(table);
    }

    @Override
    public String name() {
        return "files";
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
        Map<Long, TableSchema> schemaCache = new HashMap<>();
        FileStatistics statistics = new FileStatistics(table.schema().fields(),
                id -> schemaCache.computeIfAbsent(id, this::readSchema));
        RowType partitionType = table.schema().partitionType();
        return LazyRows.of(table.snapshotEntries().liveEntries(snapshot.get(), ManifestFilter.ALL).iterator(),
                entry -> toRow(entry, partitionType, statistics), "the files of table " + table.fullName());
    }

    private InternalRow toRow(ManifestEntry entry, RowType partitionType, FileStatistics statistics) {
        DataFileMeta file = entry.file();
        FileStatistics.Maps stats = statistics.of(file);
        RowType keyType = statistics.keyType(file);
        boolean hasKey = file.minKey().arity() > 0;
        String path = file.externalPath() != null
                ? file.externalPath()
                : MetadataStrings.path(table.paths().dataFile(entry.partition(), entry.bucket(), file.fileName()));
        return GenericRow.of(
                BinaryString.fromString(MetadataStrings.partition(entry.partition(), partitionType)),
                entry.bucket(),
                BinaryString.fromString(path),
                BinaryString.fromString(formatOf(file.fileName())),
                file.schemaId(),
                file.level(),
                file.rowCount(),
                file.fileSize(),
                hasKey ? BinaryString.fromString(MetadataStrings.key(file.minKey(), keyType)) : null,
                hasKey ? BinaryString.fromString(MetadataStrings.key(file.maxKey(), keyType)) : null,
                BinaryString.fromString(stats.nullCounts().toString()),
                BinaryString.fromString(stats.minValues().toString()),
                BinaryString.fromString(stats.maxValues().toString()),
                file.minSequenceNumber(),
                file.maxSequenceNumber(),
                file.creationTimeMillis() == null ? null : MetadataStrings.wallClockTime(file.creationTimeMillis()),
                file.deleteRowCount(),
                file.fileSource() == null ? null : BinaryString.fromString(file.fileSource().name()));
    }

    /** The file format, the file name's extension ({@code parquet}, {@code orc}, {@code avro}). */
    static String formatOf(String fileName) {
        int dot = fileName.lastIndexOf('.');
        return dot < 0 ? "" : fileName.substring(dot + 1);
    }

    private TableSchema readSchema(long id) {
        try {
            return table.schemaManager().schema(id);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read schema " + id + " of table " + table.fullName(), e);
        }
    }
}
