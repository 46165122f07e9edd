package dev.streamhouse.flink.catalog.system;

import static org.apache.flink.table.api.DataTypes.BIGINT;
import static org.apache.flink.table.api.DataTypes.FIELD;
import static org.apache.flink.table.api.DataTypes.INT;
import static org.apache.flink.table.api.DataTypes.ROW;
import static org.apache.flink.table.api.DataTypes.STRING;
import static org.apache.flink.table.api.DataTypes.TIMESTAMP;

import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.manifest.ManifestEntry;
import dev.streamhouse.storage.operation.ManifestFilter;
import dev.streamhouse.storage.schema.TableSchema;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.types.RowType;

import org.apache.flink.table.data.GenericRowData;
import org.apache.flink.table.data.RowData;
import org.apache.flink.table.data.StringData;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code t$files}: the live data files of the selected snapshot (see {@link SnapshotSelector}), in
 * manifest order. Partition, key and statistics columns use the text forms of {@link MetadataStrings};
 * {@code file_path} is the full path; {@code creation_time} is the writer's wall-clock time.
 */
final class FilesTable implements SystemTable {
    private static final long serialVersionUID = 1L;

    private static final org.apache.flink.table.types.logical.RowType ROW_TYPE =
            (org.apache.flink.table.types.logical.RowType) ROW(
                    FIELD("partition", STRING()),
                    FIELD("bucket", INT().notNull()),
                    FIELD("file_path", STRING().notNull()),
                    FIELD("file_format", STRING().notNull()),
                    FIELD("schema_id", BIGINT().notNull()),
                    FIELD("level", INT().notNull()),
                    FIELD("record_count", BIGINT().notNull()),
                    FIELD("file_size_in_bytes", BIGINT().notNull()),
                    FIELD("min_key", STRING()),
                    FIELD("max_key", STRING()),
                    FIELD("null_value_counts", STRING().notNull()),
                    FIELD("min_value_stats", STRING().notNull()),
                    FIELD("max_value_stats", STRING().notNull()),
                    FIELD("min_sequence_number", BIGINT()),
                    FIELD("max_sequence_number", BIGINT()),
                    FIELD("creation_time", TIMESTAMP(3)),
                    FIELD("deleteRowCount", BIGINT()),
                    FIELD("file_source", STRING())).notNull().getLogicalType();

    @Override
    public String name() {
        return "files";
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
        Map<Long, TableSchema> schemaCache = new HashMap<>();
        FileStatistics statistics = new FileStatistics(table.schema().fields(),
                id -> schemaCache.computeIfAbsent(id, i -> readSchema(table, i)));
        RowType partitionType = table.schema().partitionType();
        List<RowData> out = new ArrayList<>();
        for (ManifestEntry entry : table.snapshotEntries().liveEntries(snapshot.get(), ManifestFilter.ALL)) {
            out.add(row(table, entry, partitionType, statistics));
        }
        return out;
    }

    private static RowData row(FileStoreTable table, ManifestEntry entry, RowType partitionType,
            FileStatistics statistics) {
        DataFileMeta file = entry.file();
        FileStatistics.Maps stats = statistics.of(file);
        RowType keyType = statistics.keyType(file);
        boolean hasKey = file.minKey().arity() > 0;
        String path = file.externalPath() != null
                ? file.externalPath()
                : MetadataStrings.path(table.paths().dataFile(entry.partition(), entry.bucket(), file.fileName()));
        return GenericRowData.of(
                StringData.fromString(MetadataStrings.partition(entry.partition(), partitionType)),
                entry.bucket(),
                StringData.fromString(path),
                StringData.fromString(formatOf(file.fileName())),
                file.schemaId(),
                file.level(),
                file.rowCount(),
                file.fileSize(),
                hasKey ? StringData.fromString(MetadataStrings.key(file.minKey(), keyType)) : null,
                hasKey ? StringData.fromString(MetadataStrings.key(file.maxKey(), keyType)) : null,
                StringData.fromString(stats.nullCounts().toString()),
                StringData.fromString(stats.minValues().toString()),
                StringData.fromString(stats.maxValues().toString()),
                file.minSequenceNumber(),
                file.maxSequenceNumber(),
                file.creationTimeMillis() == null ? null : MetadataStrings.wallClockTime(file.creationTimeMillis()),
                file.deleteRowCount(),
                file.fileSource() == null ? null : StringData.fromString(file.fileSource().name()));
    }

    /** The file format, the file name's extension ({@code parquet}, {@code orc}, {@code avro}). */
    static String formatOf(String fileName) {
        int dot = fileName.lastIndexOf('.');
        return dot < 0 ? "" : fileName.substring(dot + 1);
    }

    private static TableSchema readSchema(FileStoreTable table, long id) {
        try {
            return table.schemaManager().schema(id);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read schema " + id + " of table " + table.fullName(), e);
        }
    }
}
