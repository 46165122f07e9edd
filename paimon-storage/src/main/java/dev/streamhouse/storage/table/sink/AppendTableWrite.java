package dev.streamhouse.storage.table.sink;

import dev.streamhouse.storage.commit.CommitMessage;
import dev.streamhouse.storage.manifest.PartitionBucket;
import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.format.FileFormat;
import dev.streamhouse.storage.format.FormatWriterFactory;
import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.io.AppendFileWriter;
import dev.streamhouse.storage.io.DataFilePathFactory;
import dev.streamhouse.storage.io.TablePaths;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.options.FileFormatOptions;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.schema.TableSchema;
import dev.streamhouse.storage.stats.FileStatsBuilder;
import dev.streamhouse.storage.types.RowType;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes an append (no primary key) table: each row goes to its partition and bucket as
 * {@link RowKeyExtractor} computes them (bucket 0 for bucket-unaware tables, the bucket function of
 * the bucket key for fixed buckets), and each (partition, bucket) has a rolling file writer.
 */
public final class AppendTableWrite implements TableWrite {
    private final FileIO fileIO;
    private final TablePaths paths;
    private final TableSchema schema;
    private final String tableName;
    private final FormatWriterFactory writerFactory;
    private final String formatIdentifier;
    private final FileStatsBuilder statsBuilder;
    private final long targetFileSize;
    private final String dataPrefix;
    private final String changelogPrefix;
    private final RowKeyExtractor keys;
    private final int numBuckets;
    private final int[] notNullPositions;
    private final Map<PartitionBucket, AppendFileWriter> writers = new LinkedHashMap<>();

    public AppendTableWrite(FileIO fileIO, TablePaths paths, TableSchema schema, FileFormat format, String tableName) {
        this.fileIO = fileIO;
        this.paths = paths;
        this.schema = schema;
        this.tableName = tableName;
        Options options = schema.tableOptions();
        RowType rowType = schema.rowType();
        this.writerFactory = format.writerFactory(rowType, options);
        this.formatIdentifier = format.identifier();
        this.statsBuilder = FileStatsBuilder.fromOptions(rowType, options);
        this.targetFileSize = FileFormatOptions.targetFileSizeBytes(options, false);
        this.dataPrefix = options.get(FileFormatOptions.DATA_FILE_PREFIX);
        this.changelogPrefix = options.get(FileFormatOptions.CHANGELOG_FILE_PREFIX);
        this.keys = RowKeyExtractor.of(schema);
        this.numBuckets = schema.numBuckets();
        List<Integer> notNull = new ArrayList<>();
        for (int i = 0; i < rowType.fieldCount(); i++) {
            if (!rowType.typeAt(i).isNullable()) {
                notNull.add(i);
            }
        }
        this.notNullPositions = notNull.stream().mapToInt(Integer::intValue).toArray();
    }

    @Override
    public void write(InternalRow row) throws IOException {
        if (row.arity() != schema.fields().size()) {
            throw new IllegalArgumentException("Cannot write to table " + tableName + ": the row has "
                    + row.arity() + " fields but the table has " + schema.fields().size());
        }
        if (row.rowKind() != RowKind.INSERT) {
            throw new IllegalArgumentException("Cannot write a " + row.rowKind().shortString()
                    + " row to append table " + tableName + ": append tables only take inserts; "
                    + "define a primary key to apply updates and deletes");
        }
        for (int p : notNullPositions) {
            if (row.isNullAt(p)) {
                throw new IllegalArgumentException("Cannot write to table " + tableName + ": column '"
                        + schema.fields().get(p).name() + "' is NOT NULL but the row has NULL");
            }
        }
        BinaryRow partition = keys.partition(row);
        int bucket = keys.bucket(row);
        PartitionBucket key = new PartitionBucket(partition, bucket);
        AppendFileWriter writer = writers.get(key);
        if (writer == null) {
            DataFilePathFactory pathFactory = new DataFilePathFactory(paths.bucketDir(partition, bucket),
                    dataPrefix, changelogPrefix, formatIdentifier);
            writer = new AppendFileWriter(fileIO, writerFactory, pathFactory, targetFileSize, statsBuilder,
                    schema.id(), 0);
            writers.put(key, writer);
        }
        writer.write(row);
    }

    @Override
    public void compact(BinaryRow partition, int bucket, boolean fullCompaction) {
        // Append-table compaction (merging small files) is not implemented yet.
    }

    @Override
    public List<CommitMessage> prepareCommit() throws IOException {
        List<CommitMessage> out = new ArrayList<>();
        int totalBuckets = numBuckets > 0 ? numBuckets : -1;
        for (Map.Entry<PartitionBucket, AppendFileWriter> e : writers.entrySet()) {
            List<DataFileMeta> files = e.getValue().prepareCommit();
            if (!files.isEmpty()) {
                out.add(CommitMessage.ofNewFiles(e.getKey().partition(), e.getKey().bucket(), totalBuckets, files));
            }
        }
        writers.clear();
        return out;
    }

    @Override
    public void close() {
        for (AppendFileWriter w : writers.values()) {
            w.abort();
        }
        writers.clear();
    }
}
