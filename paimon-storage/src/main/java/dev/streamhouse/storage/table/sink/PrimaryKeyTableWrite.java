package dev.streamhouse.storage.table.sink;

import dev.streamhouse.storage.commit.CompactIncrement;
import dev.streamhouse.storage.commit.DataIncrement;
import dev.streamhouse.storage.commit.CommitMessage;
import dev.streamhouse.storage.bucket.dynamic.AssignerRouting;
import dev.streamhouse.storage.bucket.dynamic.DynamicBucketAssigner;
import dev.streamhouse.storage.bucket.dynamic.HashIndexFile;
import dev.streamhouse.storage.bucket.dynamic.IndexChange;
import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.manifest.ManifestEntry;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.format.FileFormat;
import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.io.TablePaths;
import dev.streamhouse.storage.mergetree.KeyValueLayout;
import dev.streamhouse.storage.mergetree.write.MergeTreeWriter;
import dev.streamhouse.storage.schema.SchemaCache;
import dev.streamhouse.storage.mergetree.MergeFunctionFactory;
import dev.streamhouse.storage.mergetree.engine.MergeEngines;
import dev.streamhouse.storage.options.ChangelogOptions;
import dev.streamhouse.storage.options.CommitOptions;
import dev.streamhouse.storage.options.MergeTreeOptions;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.schema.TableSchema;
import dev.streamhouse.storage.manifest.PartitionBucket;

import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiPredicate;

/**
 * Writes a primary-key table: each row goes to its partition and bucket (the bucket function of the
 * bucket key for fixed buckets; for {@code bucket = -1} the dynamic-bucket assigner, fed the trimmed
 * primary key hash, or the bucket given with the row when buckets are assigned upstream,
 * {@link WriteContext#withAssignedBuckets()}) and into that bucket's LSM writer, keyed by the trimmed
 * primary key; partition, bucket and key as {@link RowKeyExtractor} computes them. For dynamic buckets
 * the write keeps the hash index file of every bucket it writes ({@code HashIndexes}): each commit
 * carries a new complete file for the buckets that got new keys. All buckets of one write share the write
 * buffer memory ({@code write-buffer-size}) and one compaction thread.
 *
 * <p>{@code changelog-producer}: with {@code input} the bucket writers also write every input record,
 * unmerged, to changelog files (see {@link MergeTreeWriter}); with {@code lookup} the compaction at
 * each commit writes the changelog ({@code mergetree.compact.LookupCompactRewriter}); with
 * {@code full-compaction} every {@code full-compaction.delta-commits} commits (default 1) compacts every
 * open bucket fully and writes the changelog between the full compactions
 * ({@code mergetree.compact.FullChangelogCompactRewriter}).
 *
 * <p>{@code ignore-delete = true}: -U and -D rows are dropped on arrival, before they get a bucket or
 * a sequence number, so they reach neither data files nor the input changelog.
 */
public final class PrimaryKeyTableWrite implements TableWrite {
    private final TableSchema schema;
    private final MergeFunctionFactory engine;
    private final TablePaths paths;
    private final String tableName;
    private final int[] primaryKeyPositions;
    private final RowKeyExtractor keys;
    private final int numBuckets;
    /** Dynamic buckets assigned here; null for fixed buckets and when buckets are assigned upstream. */
    private final DynamicBucketAssigner assigner;
    /** Dynamic buckets: the hash index files of the buckets written here; null for fixed buckets. */
    private final HashIndexes indexes;
    private final Integer fullCompactionDeltaCommits;
    /** {@code commit.force-compact}: every commit waits for the running compactions. */
    private final boolean forceCompact;
    private final boolean ignoreDelete;
    private final boolean ignoreUpdateBefore;
    private final BucketWriters writers;
    private int commits;
    /** Whether rows come with their dynamic bucket (write(row, bucket)). */
    private final boolean bucketsAssigned;
    /** Whether a successor took this write's buckets over. */
    private boolean handedOver;

    public PrimaryKeyTableWrite(FileIO fileIO, TablePaths paths, TableSchema schema, SchemaCache schemas,
            FileFormat format, String tableName, BucketStateLoader state) {
        this(fileIO, paths, schema, schemas, format, tableName, state, AssignerRouting.single());
    }

    /**
     * @param routing for dynamic buckets: which assigner this write is; the caller routes to it only
     *     the rows the routing {@link AssignerRouting#receives receives}
     */
    public PrimaryKeyTableWrite(FileIO fileIO, TablePaths paths, TableSchema schema, SchemaCache schemas,
            FileFormat format, String tableName, BucketStateLoader state, AssignerRouting routing) {
        this(fileIO, paths, schema, schemas, format, tableName, state, routing,
                java.nio.file.Path.of(System.getProperty("java.io.tmpdir")));
    }

    /** @param tempDirectory where write-buffer spills and local lookup files go (in a directory of their own) */
    public PrimaryKeyTableWrite(FileIO fileIO, TablePaths paths, TableSchema schema, SchemaCache schemas,
            FileFormat format, String tableName, BucketStateLoader state, AssignerRouting routing,
            java.nio.file.Path tempDirectory) {
        this(fileIO, paths, schema, schemas, format, tableName, state, routing, tempDirectory, null, false);
    }

    /**
     * @param predecessor an earlier write of the same table (e.g. under an older schema) whose buckets
     *     this write continues, or null: it is finished here (flushed, compactions awaited), its files not
     *     handed out yet are handed out by this write's next {@link #prepareCommit()}, and it is closed
     * @throws IllegalArgumentException if the predecessor differs in what a hand-over keeps: primary and
     *     partition keys, bucket count, merge engine, deletion vectors
     * @param bucketsAssigned for dynamic buckets: rows come with their bucket, assigned upstream
     *     ({@link #write(InternalRow, int)}), and {@code routing} is unused
     */
    public PrimaryKeyTableWrite(FileIO fileIO, TablePaths paths, TableSchema schema, SchemaCache schemas,
            FileFormat format, String tableName, BucketStateLoader state, AssignerRouting routing,
            java.nio.file.Path tempDirectory, PrimaryKeyTableWrite predecessor, boolean bucketsAssigned) {
        this.schema = schema;
        this.paths = paths;
        this.tableName = tableName;
        Options options = schema.tableOptions();
        this.forceCompact = options.get(CommitOptions.COMMIT_FORCE_COMPACT);
        KeyValueLayout layout = KeyValueLayout.of(schema);
        this.primaryKeyPositions = schema.positionsOf(schema.primaryKeys());
        this.keys = RowKeyExtractor.of(schema);
        this.numBuckets = schema.numBuckets();
        if (numBuckets > 0) {
            this.assigner = null;
            this.indexes = null;
        } else if (numBuckets == -1) {
            if (!schema.primaryKeys().containsAll(schema.partitionKeys())) {
                throw new UnsupportedOperationException("Cannot write to table " + tableName + ": its primary key "
                        + schema.primaryKeys() + " does not include all partition keys " + schema.partitionKeys()
                        + " (cross-partition upsert), which is not supported yet; set a fixed 'bucket' or add the "
                        + "partition keys to the primary key");
            }
            HashIndexFile indexFile = new HashIndexFile(fileIO, paths.root(), paths.renderer());
            if (predecessor != null) {
                if ((predecessor.assigner == null) != bucketsAssigned) {
                    throw new IllegalArgumentException("Cannot continue the write of table " + tableName + ": one "
                            + "write assigns its buckets, the other takes them assigned upstream");
                }
                this.assigner = predecessor.assigner;
                this.indexes = predecessor.indexes;
            } else {
                this.assigner = bucketsAssigned ? null
                        : DynamicBucketAssigner.create(options, indexFile, state::hashIndexEntries, routing).assignOnly();
                this.indexes = new HashIndexes(indexFile, state);
            }
        } else {
            throw new UnsupportedOperationException("Cannot write to table " + tableName + ": 'bucket' = "
                    + numBuckets + " (postpone bucket) is not supported yet");
        }
        this.bucketsAssigned = bucketsAssigned && numBuckets == -1;
        this.fullCompactionDeltaCommits = fullCompactionDeltaCommits(options);
        this.ignoreDelete = options.get(MergeTreeOptions.IGNORE_DELETE);
        this.engine = MergeEngines.create(schema);
        this.ignoreUpdateBefore = options.get(MergeTreeOptions.IGNORE_UPDATE_BEFORE);
        this.writers = new BucketWriters(fileIO, paths, schema, schemas, format, tableName, state, layout,
                tempDirectory);
        if (predecessor != null) {
            try {
                takeOver(predecessor);
            } catch (IOException e) {
                writers.close();
                throw new java.io.UncheckedIOException("Cannot continue the write of table " + tableName + ": "
                        + e.getMessage(), e);
            }
        }
    }

    private void takeOver(PrimaryKeyTableWrite predecessor) throws IOException {
        if (predecessor.handedOver) {
            throw new IllegalStateException("Cannot continue the write of table " + tableName + ": the earlier write "
                    + "was already handed over to another");
        }
        TableSchema before = predecessor.schema;
        Options was = before.tableOptions();
        Options is = schema.tableOptions();
        if (!before.primaryKeys().equals(schema.primaryKeys()) || !before.partitionKeys().equals(schema.partitionKeys())
                || before.numBuckets() != schema.numBuckets()
                || was.get(MergeTreeOptions.MERGE_ENGINE) != is.get(MergeTreeOptions.MERGE_ENGINE)
                || !was.get(MergeTreeOptions.DELETION_VECTORS_ENABLED).equals(is.get(MergeTreeOptions.DELETION_VECTORS_ENABLED))) {
            throw new IllegalArgumentException("Cannot continue the write of table " + tableName + " with schema "
                    + schema.id() + ": it changed primary keys, partition keys, bucket count, merge engine or "
                    + "deletion vectors since schema " + before.id());
        }
        predecessor.handedOver = true;
        writers.takeOver(predecessor.writers.handOver());
        predecessor.close();
    }

    /**
     * {@code full-compaction.delta-commits}; for {@code changelog-producer} = full-compaction without it,
     * every commit (as Apache Paimon's writer does), so the changelog is never held back indefinitely.
     * None with {@code write-only}: like Paimon's, such a writer never compacts (a separate compaction
     * job does).
     */
    private static Integer fullCompactionDeltaCommits(Options options) {
        if (options.get(MergeTreeOptions.WRITE_ONLY)) {
            return null;
        }
        Integer deltaCommits = options.get(MergeTreeOptions.FULL_COMPACTION_DELTA_COMMITS);
        if (deltaCommits == null
                && options.get(ChangelogOptions.CHANGELOG_PRODUCER) == ChangelogOptions.ChangelogProducer.FULL_COMPACTION) {
            return 1;
        }
        return deltaCommits;
    }

    @Override
    public void resumeLevelZero(BiPredicate<BinaryRow, Integer> ownsFixedBucket) throws IOException {
        if (!writers.resumesLevelZero()) {
            return;
        }
        for (ManifestEntry e : writers.levelZeroFiles()) {
            boolean owned = assigner == null ? ownsFixedBucket.test(e.partition(), e.bucket())
                    : assigner.routing().ownsBucket(e.bucket());
            if (owned) {
                writers.writer(e.partition(), e.bucket());
            }
        }
    }

    @Override
    public void write(InternalRow row) throws IOException {
        if (bucketsAssigned) {
            throw new IllegalStateException("Cannot write to table " + tableName + ": this write takes rows with the"
                    + " dynamic bucket assigned upstream, through write(row, bucket)");
        }
        if (!accepts(row)) {
            return;
        }
        BinaryRow partition = keys.partition(row);
        BinaryRow key = keys.trimmedPrimaryKey(row);
        int bucket;
        if (numBuckets > 0) {
            bucket = keys.bucket(row);
        } else {
            bucket = assigner.assign(partition, key.formatHash());
            if (!assigner.routing().ownsBucket(bucket)) {
                // The key was placed by an earlier job whose assigner layout differed; writing it here
                // would give the bucket two writers (clashing LSM writes and compactions).
                throw new IllegalStateException("Cannot write to table " + tableName + ": a key of partition "
                        + paths.renderer().render(partition) + " lives in bucket " + bucket + ", which " + assigner.routing()
                        + " does not own; the table was written with another number of parallel writers. Write it"
                        + " with a separate bucket assigner (its writers routed by bucket), or with parallelism 1");
            }
        }
        writeInto(partition, key, bucket, row);
    }

    @Override
    public void write(InternalRow row, int bucket) throws IOException {
        if (!bucketsAssigned) {
            throw new IllegalStateException("Cannot write to table " + tableName + " with a given bucket: this write "
                    + (numBuckets > 0 ? "is of a fixed-bucket table" : "assigns dynamic buckets itself")
                    + "; use write(row)");
        }
        if (bucket < 0 || bucket > Short.MAX_VALUE) {
            throw new IllegalArgumentException("Cannot write to table " + tableName + ": bucket " + bucket
                    + " is outside [0, " + Short.MAX_VALUE + "]");
        }
        if (!accepts(row)) {
            return;
        }
        writeInto(keys.partition(row), keys.trimmedPrimaryKey(row), bucket, row);
    }

    /** Checks the row; false if it is dropped on arrival (ignore-delete, ignore-update-before). */
    private boolean accepts(InternalRow row) {
        if (handedOver) {
            throw new IllegalStateException("Cannot write to table " + tableName + ": this write was handed over "
                    + "to a successor");
        }
        if (row.arity() != schema.fields().size()) {
            throw new IllegalArgumentException("Cannot write to table " + tableName + ": the row has "
                    + row.arity() + " fields but the table has " + schema.fields().size());
        }
        for (int p : primaryKeyPositions) {
            if (row.isNullAt(p)) {
                throw new IllegalArgumentException("Cannot write to table " + tableName + ": primary key column '"
                        + schema.fields().get(p).name() + "' is NULL");
            }
        }
        if (ignoreDelete && row.rowKind().isRetract()
                || ignoreUpdateBefore && row.rowKind() == RowKind.UPDATE_BEFORE) {
            return false;
        }
        String refusal = engine.refusesInput(row.rowKind());
        if (refusal != null) {
            throw new IllegalArgumentException("Cannot write a " + row.rowKind().shortString() + " row to table "
                    + tableName + ": " + refusal);
        }
        return true;
    }

    private void writeInto(BinaryRow partition, BinaryRow key, int bucket, InternalRow row) throws IOException {
        if (indexes != null) {
            indexes.notifyKey(partition, bucket, key.formatHash());
        }
        writers.writer(partition, bucket).write(row.rowKind(), key, row);
    }

    @Override
    public void compact(BinaryRow partition, int bucket, boolean fullCompaction) throws IOException {
        writers.writer(partition, bucket).compact(fullCompaction);
    }

    @Override
    public List<CommitMessage> prepareCommit() throws IOException {
        return prepareCommit(true);
    }

    /**
     * {@inheritDoc}
     *
     * <p>A streaming writer's checkpoint ({@code waitCompaction} false) waits for no compaction, not
     * even in a bucket above {@code num-sorted-run.stop-trigger} (that bucket's next write waits), except
     * where the table asks a commit to: a full compaction due ({@code full-compaction.delta-commits}),
     * {@code commit.force-compact}, and level 0 moved up under {@code lookup-wait}.
     */
    @Override
    public List<CommitMessage> prepareCommit(boolean waitCompaction) throws IOException {
        commits++;
        boolean wait = waitCompaction || forceCompact;
        if (fullCompactionDeltaCommits != null && commits % fullCompactionDeltaCommits == 0) {
            for (MergeTreeWriter w : writers.all().values()) {
                w.compact(true);
            }
            wait = true;
        }
        Map<PartitionBucket, MergeTreeWriter.Increment> increments = new LinkedHashMap<>();
        for (Map.Entry<PartitionBucket, MergeTreeWriter> e : writers.all().entrySet()) {
            increments.put(e.getKey(), e.getValue().prepareCommit(wait));
        }
        writers.dropLookupFilesOfRemovedData();
        return messages(increments);
    }


    private List<CommitMessage> messages(Map<PartitionBucket, MergeTreeWriter.Increment> increments)
            throws IOException {
        int totalBuckets = numBuckets > 0 ? numBuckets : -1;
        Map<PartitionBucket, DataIncrement> data = new LinkedHashMap<>();
        Map<PartitionBucket, CompactIncrement> compact = new LinkedHashMap<>();
        for (Map.Entry<PartitionBucket, MergeTreeWriter.Increment> e : increments.entrySet()) {
            data.put(e.getKey(), e.getValue().data());
            compact.put(e.getKey(), e.getValue().compact());
        }
        if (indexes != null) {
            for (IndexChange change : indexes.prepareCommit()) {
                PartitionBucket pb = new PartitionBucket(change.partition(), change.bucket());
                DataIncrement d = data.getOrDefault(pb, DataIncrement.EMPTY);
                List<dev.streamhouse.storage.index.IndexFileMeta> deleted = change.replacedFile() == null
                        ? List.of() : List.of(change.replacedFile());
                data.put(pb, new DataIncrement(d.newFiles(), d.deletedFiles(), d.changelogFiles(),
                        List.of(change.newFile()), deleted));
            }
        }
        List<CommitMessage> out = new ArrayList<>();
        for (Map.Entry<PartitionBucket, DataIncrement> e : data.entrySet()) {
            CommitMessage m = new CommitMessage(e.getKey().partition(), e.getKey().bucket(), totalBuckets,
                    e.getValue(), compact.getOrDefault(e.getKey(), CompactIncrement.EMPTY));
            if (!m.isEmpty()) {
                out.add(m);
            }
        }
        return out;
    }

    @Override
    public void reportTo(dev.streamhouse.storage.metrics.WriterStats stats) {
        writers.reportTo(stats);
    }

    @Override
    public void close() {
        writers.close();
    }
}
