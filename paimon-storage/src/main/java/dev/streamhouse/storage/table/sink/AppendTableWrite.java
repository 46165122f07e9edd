package dev.streamhouse.storage.table.sink;

import dev.streamhouse.storage.append.AppendCompactPlanner;
import dev.streamhouse.storage.append.AppendCompactor;
import dev.streamhouse.storage.commit.CommitMessage;
import dev.streamhouse.storage.commit.CompactIncrement;
import dev.streamhouse.storage.commit.DataIncrement;
import dev.streamhouse.storage.manifest.FileSource;
import dev.streamhouse.storage.manifest.ManifestEntry;
import dev.streamhouse.storage.options.CompactionTuningOptions;
import dev.streamhouse.storage.options.ScanOptions;
import dev.streamhouse.storage.manifest.PartitionBucket;
import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.format.FileFormat;
import dev.streamhouse.storage.format.FormatWriterFactory;
import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.fs.Path;
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
 *
 * <p><b>Sequence numbers.</b> In a fixed-bucket table a bucket's rows are numbered on from the
 * largest sequence number of its live files (read from the latest snapshot when the bucket is first
 * written), so sequence order is row order, as in Apache Paimon; a compaction relies on it. Rows of a
 * bucket-unaware table have no order to keep and are numbered from 0 in each writer, as Paimon does.
 *
 * <p><b>Compaction</b> ({@link #compact}) rewrites small files of a bucket by {@link AppendCompactor};
 * its result travels with the next {@link #prepareCommit()}.
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
    /** Next sequence number of each fixed bucket written or compacted by this write. */
    private final Map<PartitionBucket, Long> nextSequence = new LinkedHashMap<>();
    private final Map<PartitionBucket, CompactIncrement> compactions = new LinkedHashMap<>();
    /** Live files per partition of the loader's snapshot; the loader reads one snapshot, so they never change. */
    private final Map<BinaryRow, List<ManifestEntry>> livePartitions = new java.util.HashMap<>();
    private final BucketStateLoader state;
    private final AppendCompactor.RewriteWriters rewriteWriters;
    private final AppendCompactor compactor;

    /**
     * @param state the table's latest live files (sequence numbers, compaction input)
     * @param rows reads files of a bucket, for compaction
     */
    public AppendTableWrite(FileIO fileIO, TablePaths paths, TableSchema schema, FileFormat format, String tableName,
            BucketStateLoader state, AppendCompactor.FileRows rows) {
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
        this.state = state;
        AppendCompactPlanner planner = new AppendCompactPlanner(targetFileSize,
                options.get(CompactionTuningOptions.COMPACTION_MIN_FILE_NUM),
                options.get(ScanOptions.SOURCE_SPLIT_OPEN_FILE_COST).bytes(), false);
        this.rewriteWriters = new AppendCompactor.RewriteWriters() {
            @Override
            public AppendFileWriter create(BinaryRow partition, int bucket, long firstSequenceNumber) {
                return newFileWriter(partition, bucket, firstSequenceNumber, FileSource.COMPACT);
            }

            @Override
            public void discard(BinaryRow partition, int bucket, List<DataFileMeta> files) {
                for (DataFileMeta f : files) {
                    fileIO.deleteQuietly(new Path(paths.bucketDir(partition, bucket), f.fileName()));
                }
            }
        };
        this.compactor = new AppendCompactor(planner, rows, rewriteWriters, numBuckets > 0);
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
            writer = newFileWriter(partition, bucket, firstSequence(key), FileSource.APPEND);
            writers.put(key, writer);
        }
        writer.write(row);
    }

    private AppendFileWriter newFileWriter(BinaryRow partition, int bucket, long firstSequence, FileSource source) {
        DataFilePathFactory pathFactory = new DataFilePathFactory(paths.bucketDir(partition, bucket),
                dataPrefix, changelogPrefix, formatIdentifier);
        return new AppendFileWriter(fileIO, writerFactory, pathFactory, targetFileSize, statsBuilder, schema.id(),
                firstSequence, source);
    }

    /** Where the rows of a new writer of the bucket are numbered from. */
    private long firstSequence(PartitionBucket key) throws IOException {
        if (numBuckets <= 0) {
            return 0;
        }
        Long next = nextSequence.get(key);
        if (next == null) {
            next = 0L;
            for (DataFileMeta f : liveFiles(key)) {
                next = Math.max(next, f.maxSequenceNumber() + 1);
            }
        }
        return next;
    }

    /** The bucket's live files in the snapshot the state loader reads (each partition's manifests read once). */
    private List<DataFileMeta> liveFiles(PartitionBucket key) throws IOException {
        List<ManifestEntry> partitionFiles = livePartitions.get(key.partition());
        if (partitionFiles == null) {
            partitionFiles = state.liveFiles(key.partition());
            livePartitions.put(key.partition(), partitionFiles);
        }
        List<DataFileMeta> out = new ArrayList<>();
        for (ManifestEntry e : partitionFiles) {
            if (e.bucket() == key.bucket()) {
                out.add(e.file());
            }
        }
        return out;
    }

    /**
     * Compacts the bucket's live files of the latest snapshot (see {@link AppendCompactor}): a full
     * compaction rewrites the small files (for a fixed bucket: those after its leading large files);
     * otherwise only when {@code compaction.min.file-num} small files are there. Once per bucket and
     * commit.
     */
    @Override
    public void compact(BinaryRow partition, int bucket, boolean fullCompaction) throws IOException {
        PartitionBucket key = new PartitionBucket(partition, bucket);
        if (compactions.containsKey(key)) {
            throw new IllegalStateException("Cannot compact bucket " + bucket + " of table " + tableName
                    + " twice before a commit");
        }
        CompactIncrement result = compactor.compact(partition, bucket, liveFiles(key), fullCompaction);
        if (!result.isEmpty()) {
            compactions.put(key, result);
        }
    }

    @Override
    public List<CommitMessage> prepareCommit() throws IOException {
        List<CommitMessage> out = new ArrayList<>();
        int totalBuckets = numBuckets > 0 ? numBuckets : -1;
        Map<PartitionBucket, List<DataFileMeta>> newFiles = new LinkedHashMap<>();
        for (Map.Entry<PartitionBucket, AppendFileWriter> e : writers.entrySet()) {
            AppendFileWriter w = e.getValue();
            List<DataFileMeta> files = w.prepareCommit();
            if (numBuckets > 0) {
                nextSequence.put(e.getKey(), w.nextSequenceNumber());
            }
            if (!files.isEmpty()) {
                newFiles.put(e.getKey(), files);
            }
        }
        writers.clear();
        for (Map.Entry<PartitionBucket, List<DataFileMeta>> e : newFiles.entrySet()) {
            CompactIncrement compacted = compactions.getOrDefault(e.getKey(), CompactIncrement.EMPTY);
            out.add(new CommitMessage(e.getKey().partition(), e.getKey().bucket(), totalBuckets,
                    DataIncrement.ofNewFiles(e.getValue()), compacted));
        }
        for (Map.Entry<PartitionBucket, CompactIncrement> e : compactions.entrySet()) {
            if (!newFiles.containsKey(e.getKey())) {
                out.add(new CommitMessage(e.getKey().partition(), e.getKey().bucket(), totalBuckets,
                        DataIncrement.EMPTY, e.getValue()));
            }
        }
        compactions.clear();
        return out;
    }

    @Override
    public void close() {
        for (AppendFileWriter w : writers.values()) {
            w.abort();
        }
        writers.clear();
        for (Map.Entry<PartitionBucket, CompactIncrement> e : compactions.entrySet()) {
            rewriteWriters.discard(e.getKey().partition(), e.getKey().bucket(), e.getValue().compactAfter());
        }
        compactions.clear();
    }
}
