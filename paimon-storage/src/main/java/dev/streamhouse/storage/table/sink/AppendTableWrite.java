package dev.streamhouse.storage.table.sink;

import dev.streamhouse.storage.append.AppendCompactPlanner;
import dev.streamhouse.storage.append.AppendCompactor;
import dev.streamhouse.storage.commit.CommitMessage;
import dev.streamhouse.storage.commit.CompactIncrement;
import dev.streamhouse.storage.commit.DataIncrement;
import dev.streamhouse.storage.manifest.FileSource;
import dev.streamhouse.storage.manifest.ManifestEntry;
import dev.streamhouse.storage.append.AppendBucketWriter;
import dev.streamhouse.storage.options.CommitOptions;
import dev.streamhouse.storage.options.CompactionTuningOptions;
import dev.streamhouse.storage.options.MergeTreeOptions;
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
 * the bucket key for fixed buckets).
 *
 * <p><b>Fixed buckets</b> ({@code bucket} = N): each bucket has an {@link AppendBucketWriter} for the
 * life of the write. Its rows are numbered on from the largest sequence number of the bucket's live
 * files (read from the latest snapshot when the bucket is first written), so sequence order is row
 * order, as in Apache Paimon; and it compacts the bucket's small files in the background by Paimon
 * 1.3.1's rules (unless {@code write-only}), the result travelling with a later commit.
 *
 * <p><b>Bucket-unaware tables</b> ({@code bucket} = -1): each (partition, bucket 0) has a rolling file
 * writer per commit; rows have no order to keep and are numbered from 0 in each writer, as Paimon
 * does. Writers never compact them on their own: a streaming job's compaction coordinator does
 * ({@link AppendCompactCoordinator}).
 *
 * <p><b>Explicit compaction</b> ({@link #compact}, {@code CALL sys.compact}) rewrites small files of a
 * bucket by {@link AppendCompactor}'s rules; its result travels with the next {@link #prepareCommit()}.
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
    /** Bucket-unaware tables: the file writer of each partition since the last commit. */
    private final Map<PartitionBucket, AppendFileWriter> writers = new LinkedHashMap<>();
    /** Bucket-unaware tables: explicit compactions since the last commit. */
    private final Map<PartitionBucket, CompactIncrement> compactions = new LinkedHashMap<>();
    /** Live files per partition of the loader's snapshot; the loader reads one snapshot, so they never change. */
    private final Map<BinaryRow, List<ManifestEntry>> livePartitions = new java.util.HashMap<>();
    private final BucketStateLoader state;
    private final AppendCompactor.RewriteWriters rewriteWriters;
    private final AppendCompactor compactor;
    /** Fixed-bucket tables: the bucket writers; null for bucket-unaware tables. */
    private final AppendBucketWriters buckets;

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
                options.get(ScanOptions.SOURCE_SPLIT_OPEN_FILE_COST).bytes(),
                options.get(CompactionTuningOptions.COMPACTION_FORCE_REWRITE_ALL_FILES));
        this.rewriteWriters = new AppendCompactor.RewriteWriters() {
            @Override
            public AppendFileWriter create(BinaryRow partition, int bucket, long firstSequenceNumber) {
                return newFileWriter(partition, bucket, firstSequenceNumber, FileSource.COMPACT);
            }

            @Override
            public void discard(BinaryRow partition, int bucket, List<DataFileMeta> files) {
                delete(partition, bucket, files);
            }
        };
        this.compactor = new AppendCompactor(planner, rows, rewriteWriters, numBuckets > 0);
        if (numBuckets > 0) {
            AppendBucketWriters.FileWriters files = new AppendBucketWriters.FileWriters() {
                @Override
                public AppendFileWriter create(BinaryRow partition, int bucket, long firstSequenceNumber,
                        FileSource source) {
                    return newFileWriter(partition, bucket, firstSequenceNumber, source);
                }

                @Override
                public void delete(BinaryRow partition, int bucket, List<DataFileMeta> written) {
                    AppendTableWrite.this.delete(partition, bucket, written);
                }
            };
            this.buckets = new AppendBucketWriters(tableName, state, files, rows, new AppendBucketWriters.Settings(
                    targetFileSize, planner, !options.get(MergeTreeOptions.WRITE_ONLY),
                    options.get(CommitOptions.COMMIT_FORCE_COMPACT)));
        } else {
            this.buckets = null;
        }
    }

    private void delete(BinaryRow partition, int bucket, List<DataFileMeta> files) {
        for (DataFileMeta f : files) {
            fileIO.deleteQuietly(new Path(paths.bucketDir(partition, bucket), f.fileName()));
        }
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
        if (buckets != null) {
            buckets.writer(partition, bucket).write(row);
            return;
        }
        PartitionBucket key = new PartitionBucket(partition, bucket);
        AppendFileWriter writer = writers.get(key);
        if (writer == null) {
            writer = newFileWriter(partition, bucket, 0, FileSource.APPEND);
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
     * Compacts a bucket now. Fixed buckets: its writer finishes its open file, waits for a running
     * compaction and starts a full compaction (the small files after the leading large ones) or the
     * minor one of {@code compaction.min.file-num} consecutive small files. Bucket-unaware tables: the
     * partition's live files of the latest snapshot are packed and rewritten here, once per partition
     * and commit. The result travels with the next {@link #prepareCommit()}.
     */
    @Override
    public void compact(BinaryRow partition, int bucket, boolean fullCompaction) throws IOException {
        if (buckets != null) {
            buckets.writer(partition, bucket).compact(fullCompaction);
            return;
        }
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

    /**
     * Rewrites exactly {@code files} of a bucket together (a task a coordinator planned), deleting what
     * it wrote if it fails; see {@link AppendCompactor#rewrite}.
     */
    List<DataFileMeta> rewrite(BinaryRow partition, int bucket, List<DataFileMeta> files) throws IOException {
        return compactor.rewrite(partition, bucket, files);
    }

    @Override
    public List<CommitMessage> prepareCommit() throws IOException {
        return prepareCommit(true);
    }

    @Override
    public List<CommitMessage> prepareCommit(boolean waitCompaction) throws IOException {
        if (buckets == null) {
            return prepareUnawareCommit();
        }
        List<CommitMessage> out = new ArrayList<>();
        try {
            for (Map.Entry<PartitionBucket, AppendBucketWriter> e : buckets.all().entrySet()) {
                AppendBucketWriter.Increment inc = e.getValue().prepareCommit(waitCompaction);
                if (!inc.isEmpty()) {
                    out.add(new CommitMessage(e.getKey().partition(), e.getKey().bucket(), numBuckets, inc.data(),
                            inc.compact()));
                }
            }
        } catch (IOException | RuntimeException e) {
            // The increments taken so far never reach the caller, so nothing will ever commit their files.
            for (CommitMessage m : out) {
                delete(m.partition(), m.bucket(), m.dataIncrement().newFiles());
                delete(m.partition(), m.bucket(), m.compactIncrement().compactAfter());
            }
            throw e;
        }
        return out;
    }

    private List<CommitMessage> prepareUnawareCommit() throws IOException {
        List<CommitMessage> out = new ArrayList<>();
        int totalBuckets = -1;
        Map<PartitionBucket, List<DataFileMeta>> newFiles = new LinkedHashMap<>();
        try {
            for (Map.Entry<PartitionBucket, AppendFileWriter> e : writers.entrySet()) {
                List<DataFileMeta> files = e.getValue().prepareCommit();
                if (!files.isEmpty()) {
                    newFiles.put(e.getKey(), files);
                }
            }
        } catch (IOException | RuntimeException e) {
            newFiles.forEach((pb, files) -> delete(pb.partition(), pb.bucket(), files));
            throw e;
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
    public void reportTo(dev.streamhouse.storage.metrics.WriterStats stats) {
        stats.writerCount(writers::size); // an int read, safe enough from another thread for a metric
    }

    @Override
    public void close() {
        if (buckets != null) {
            buckets.close();
        }
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
