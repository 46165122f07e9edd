package dev.streamhouse.storage.table.sink;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.deletionvectors.BucketDeletionVectors;
import dev.streamhouse.storage.deletionvectors.DeletionVectorIndexFile;
import dev.streamhouse.storage.format.FileFormat;
import dev.streamhouse.storage.index.IndexFileMeta;
import dev.streamhouse.storage.index.IndexManifestEntry;
import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.io.DataFilePathFactory;
import dev.streamhouse.storage.io.TablePaths;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.manifest.ManifestEntry;
import dev.streamhouse.storage.mergetree.KeyComparator;
import dev.streamhouse.storage.mergetree.KeyValueLayout;
import dev.streamhouse.storage.mergetree.MergeFunctionFactory;
import dev.streamhouse.storage.mergetree.buffer.MemoryPool;
import dev.streamhouse.storage.metrics.WriterStats;
import dev.streamhouse.storage.mergetree.buffer.WriteBuffer;
import dev.streamhouse.storage.mergetree.buffer.WriteBufferBuilder;
import dev.streamhouse.storage.mergetree.compact.Levels;
import dev.streamhouse.storage.mergetree.compact.MergeTreeCompactManager;
import dev.streamhouse.storage.mergetree.aggregate.ValueEquality;
import dev.streamhouse.storage.mergetree.compact.CompactRewriter;
import dev.streamhouse.storage.mergetree.compact.FullChangelogCompactRewriter;
import dev.streamhouse.storage.mergetree.lookup.LevelLookup;
import dev.streamhouse.storage.mergetree.lookup.LookupFileCache;
import dev.streamhouse.storage.mergetree.compact.LookupCompactRewriter;
import dev.streamhouse.storage.mergetree.compact.LookupMerges;
import dev.streamhouse.storage.mergetree.compact.MergeTreeCompactRewriter;
import dev.streamhouse.storage.mergetree.write.LevelZeroAtCommit;
import dev.streamhouse.storage.options.LookupOptions;
import dev.streamhouse.storage.options.MergeTreeOptions.MergeEngine;
import java.util.HashSet;
import java.util.Set;
import dev.streamhouse.storage.mergetree.compact.UniversalCompaction;
import dev.streamhouse.storage.mergetree.io.KeyValueFileReaderFactory;
import dev.streamhouse.storage.mergetree.io.KeyValueFileWriterFactory;
import dev.streamhouse.storage.mergetree.engine.MergeEngines;
import dev.streamhouse.storage.mergetree.read.MergeReadProjection;
import dev.streamhouse.storage.mergetree.read.MergeTreeReaders;
import dev.streamhouse.storage.mergetree.read.VersionOrder;
import dev.streamhouse.storage.mergetree.write.MergeTreeWriter;
import dev.streamhouse.storage.schema.SchemaCache;
import dev.streamhouse.storage.options.ChangelogOptions;
import dev.streamhouse.storage.options.ChangelogOptions.ChangelogProducer;
import dev.streamhouse.storage.options.FileFormatOptions;
import dev.streamhouse.storage.options.MemorySize;
import dev.streamhouse.storage.options.MergeTreeOptions;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.schema.TableSchema;
import dev.streamhouse.storage.manifest.PartitionBucket;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Stream;

/**
 * The LSM writers of one table write, one per (partition, bucket), created on first use and
 * restored from the latest snapshot (levels, next sequence number). They share the write buffer
 * memory pool, the spill directory and a compaction thread.
 */
final class BucketWriters implements AutoCloseable {
    /** Sections smaller than this share one rewrite; bigger single files are upgraded in place. */
    private static final double COMPACTION_FILE_SIZE_RATIO = 0.7;

    private final FileIO fileIO;
    private final TablePaths paths;
    private final TableSchema schema;
    private final SchemaCache schemas;
    private final FileFormat format;
    private final String tableName;
    private final BucketStateLoader state;
    private final KeyValueLayout layout;
    private final Options options;
    private final MemoryPool pool;
    private final MergeFunctionFactory mergeFunctions;
    private final VersionOrder versionOrder;
    private final long targetFileSize;
    /** Whether compactions look up older versions of the keys they move out of level 0. */
    private final boolean lookupCompaction;
    /** The table's deletion-vector index files ({@code deletion-vectors.enabled}), or null. */
    private final DeletionVectorIndexFile deletionVectorFiles;
    private final Map<PartitionBucket, MergeTreeWriter> writers = new LinkedHashMap<>();
    /** The writers of the partition last written, by bucket: most rows skip the map lookup. */
    private BinaryRow cachedPartition;
    private MergeTreeWriter[] cachedWriters = new MergeTreeWriter[0];
    private final Map<WriteBuffer, MergeTreeWriter> byBuffer = new IdentityHashMap<>();
    private final Map<BinaryRow, List<ManifestEntry>> restored = new HashMap<>();
    /** Where the spill directory and the local lookup files' directory are created. */
    private final java.nio.file.Path tempDirectory;
    private java.nio.file.Path spillDirectory;
    private ExecutorService compactionExecutor;
    private LookupFileCache lookupFiles;
    /** Where the buckets report their shape and compactions, or null. */
    private WriterStats stats;

    BucketWriters(FileIO fileIO, TablePaths paths, TableSchema schema, SchemaCache schemas, FileFormat format,
            String tableName, BucketStateLoader state, KeyValueLayout layout, java.nio.file.Path tempDirectory) {
        this.tempDirectory = tempDirectory;
        this.fileIO = fileIO;
        this.paths = paths;
        this.schema = schema;
        this.schemas = schemas;
        this.format = format;
        this.tableName = tableName;
        this.state = state;
        this.layout = layout;
        this.options = schema.tableOptions();
        long bufferBytes = options.get(MergeTreeOptions.WRITE_BUFFER_SIZE).bytes();
        this.pool = new MemoryPool(bufferBytes, pageSize(bufferBytes));
        this.mergeFunctions = MergeEngines.create(schema);
        int[] all = new int[schema.fields().size()];
        for (int i = 0; i < all.length; i++) {
            all[i] = i;
        }
        this.versionOrder = MergeReadProjection.of(schema, all).versionOrder();
        this.targetFileSize = FileFormatOptions.targetFileSizeBytes(options, true);
        boolean deletionVectors = options.get(MergeTreeOptions.DELETION_VECTORS_ENABLED);
        this.deletionVectorFiles = deletionVectors
                ? DeletionVectorIndexFile.of(fileIO, paths.root(), tableName, options) : null;
        this.lookupCompaction = !mergeFunctions.readsLevelZero()
                || options.get(ChangelogOptions.CHANGELOG_PRODUCER) == ChangelogProducer.LOOKUP
                || options.get(LookupOptions.FORCE_LOOKUP)
                || deletionVectors;
    }

    /**
     * 64 KiB pages, but at least ~256 pages per pool: every non-empty bucket buffer holds at least two
     * pages, so a small buffer shared by many buckets would otherwise flush constantly.
     */
    static int pageSize(long bufferBytes) {
        long wanted = Math.max(4096, Math.min(MemoryPool.DEFAULT_PAGE_SIZE, bufferBytes / 256));
        return Integer.highestOneBit((int) wanted);
    }

    /**
     * Whether the level-0 files a lost compaction left must be compacted by the next commit even without
     * new rows: tables whose commits move level 0 up (lookup compactions) and full-compaction changelog
     * tables, whose changelog the next full compaction writes.
     */
    boolean resumesLevelZero() {
        return (lookupCompaction || options.get(ChangelogOptions.CHANGELOG_PRODUCER) == ChangelogProducer.FULL_COMPACTION)
                && !options.get(MergeTreeOptions.WRITE_ONLY);
    }

    /** Live level-0 files of the latest snapshot, all partitions. */
    List<ManifestEntry> levelZeroFiles() throws IOException {
        return state.levelZeroFiles();
    }

    /**
     * Drops the local lookup files of data files that no bucket of this write holds any more (compacted
     * away), so they do not wait for {@code lookup.cache-file-retention}. Call between compactions'
     * use, e.g. after a commit's increments were taken.
     */
    void dropLookupFilesOfRemovedData() {
        LookupFileCache cache;
        synchronized (this) {
            cache = lookupFiles;
        }
        if (cache == null) {
            return;
        }
        Set<String> live = new HashSet<>();
        for (MergeTreeWriter w : writers.values()) {
            for (DataFileMeta f : w.liveFiles()) {
                live.add(f.fileName());
            }
        }
        cache.retainOnly(live);
    }

    Map<PartitionBucket, MergeTreeWriter> all() {
        return writers;
    }

    MergeTreeWriter writer(BinaryRow partition, int bucket) throws IOException {
        boolean samePartition = partition.equals(cachedPartition);
        if (samePartition && bucket < cachedWriters.length && cachedWriters[bucket] != null) {
            return cachedWriters[bucket];
        }
        MergeTreeWriter writer = writerFromMap(partition, bucket);
        if (!samePartition) {
            cachedPartition = partition.copy();
            cachedWriters = new MergeTreeWriter[0];
        }
        if (bucket >= cachedWriters.length) {
            cachedWriters = java.util.Arrays.copyOf(cachedWriters, Math.max(bucket + 1, 2 * cachedWriters.length));
        }
        cachedWriters[bucket] = writer;
        return writer;
    }

    private void forgetCachedWriters() {
        cachedPartition = null;
        cachedWriters = new MergeTreeWriter[0];
    }

    private MergeTreeWriter writerFromMap(BinaryRow partition, int bucket) throws IOException {
        PartitionBucket key = new PartitionBucket(partition, bucket);
        MergeTreeWriter writer = writers.get(key);
        if (writer == null) {
            writer = create(partition.copy(), bucket);
            writers.put(key, writer);
            byBuffer.put(writer.buffer(), writer);
            if (stats != null) {
                writer.compactions().reportTo(stats, key);
            }
        }
        return writer;
    }

    private MergeTreeWriter create(BinaryRow partition, int bucket) throws IOException {
        List<DataFileMeta> files = new ArrayList<>();
        int numBuckets = schema.numBuckets();
        List<ManifestEntry> restored = restored(partition);
        BucketCountCheck.check(tableName, paths.renderer().values(partition), numBuckets, restored);
        for (ManifestEntry e : restored) {
            if (e.bucket() == bucket) {
                files.add(e.file());
            }
        }
        long nextSequence = 0;
        for (DataFileMeta f : files) {
            nextSequence = Math.max(nextSequence, f.maxSequenceNumber() + 1);
        }
        return create(partition, bucket, files, nextSequence, deletionVectors(partition, bucket));
    }

    /** What a bucket's writer leaves to the writer that takes the bucket over. */
    record HandOver(BinaryRow partition, int bucket, List<DataFileMeta> files, long nextSequence,
            BucketDeletionVectors vectors, MergeTreeWriter.Pending pending) {}

    /**
     * Finishes every open bucket for a successor write ({@link #takeOver}): each writer flushes, waits
     * for its compaction and gives up its files not handed out yet ({@link MergeTreeWriter#handOver()}).
     */
    List<HandOver> handOver() throws IOException {
        List<HandOver> out = new ArrayList<>();
        for (Map.Entry<PartitionBucket, MergeTreeWriter> e : writers.entrySet()) {
            MergeTreeWriter w = e.getValue();
            MergeTreeWriter.Pending pending = w.handOver();
            out.add(new HandOver(e.getKey().partition(), e.getKey().bucket(), List.copyOf(w.liveFiles()),
                    w.nextSequenceNumber(), w.deletionVectors(), pending));
        }
        return out;
    }

    /**
     * Opens the buckets a predecessor write handed over, with its files (committed or not), sequence
     * numbers, deletion vectors and files not handed out yet, instead of reading them from the latest
     * snapshot.
     */
    void takeOver(List<HandOver> buckets) {
        forgetCachedWriters();
        for (HandOver h : buckets) {
            MergeTreeWriter writer = create(h.partition(), h.bucket(), h.files(), h.nextSequence(), h.vectors());
            writer.adopt(h.pending());
            PartitionBucket key = new PartitionBucket(h.partition(), h.bucket());
            writers.put(key, writer);
            if (stats != null) {
                writer.compactions().reportTo(stats, key);
            }
            byBuffer.put(writer.buffer(), writer);
        }
    }

    private MergeTreeWriter create(BinaryRow partition, int bucket, List<DataFileMeta> files, long nextSequence,
            BucketDeletionVectors vectors) {
        DataFilePathFactory pathFactory = new DataFilePathFactory(paths.bucketDir(partition, bucket),
                options.get(FileFormatOptions.DATA_FILE_PREFIX), options.get(FileFormatOptions.CHANGELOG_FILE_PREFIX),
                format.identifier());
        KeyValueFileWriterFactory writerFactory = new KeyValueFileWriterFactory(fileIO, layout, format, options,
                pathFactory, schema.id(), targetFileSize);
        int[] all = new int[schema.fields().size()];
        for (int i = 0; i < all.length; i++) {
            all[i] = i;
        }
        KeyValueFileReaderFactory fileReaders = new KeyValueFileReaderFactory(fileIO, paths, layout, schemas, all, null);
        MergeTreeReaders readers = new MergeTreeReaders(
                vectors == null ? fileReaders : fileReaders.withDeletionVectors(vectors), mergeFunctions, versionOrder);
        KeyComparator keyComparator = new KeyComparator(layout.keyType());
        Levels levels = new Levels(keyComparator, files, MergeTreeOptions.numLevels(options));
        MergeTreeCompactManager compactions = new MergeTreeCompactManager(compactionExecutor(), levels,
                new UniversalCompaction(options.get(MergeTreeOptions.COMPACTION_MAX_SIZE_AMPLIFICATION_PERCENT),
                        options.get(MergeTreeOptions.COMPACTION_SIZE_RATIO), MergeTreeOptions.compactionTrigger(options)),
                keyComparator, (long) (targetFileSize * COMPACTION_FILE_SIZE_RATIO), MergeTreeOptions.stopTrigger(options),
                rewriter(partition, bucket, readers, writerFactory, pathFactory, vectors), vectors);
        return new MergeTreeWriter(newBuffer(), nextSequence, mergeFunctions, writerFactory, compactions,
                options.get(MergeTreeOptions.WRITE_ONLY), fileIO, pathFactory,
                options.get(ChangelogOptions.CHANGELOG_PRODUCER) == ChangelogProducer.INPUT,
                lookupCompaction ? levelZeroAtCommit() : null, vectors);
    }

    /**
     * The deletion vectors of a bucket in the snapshot its files were restored from, or null for a table
     * without them.
     */
    private BucketDeletionVectors deletionVectors(BinaryRow partition, int bucket) throws IOException {
        if (deletionVectorFiles == null) {
            return null;
        }
        List<IndexFileMeta> indexFiles = new ArrayList<>();
        for (IndexManifestEntry e : state.deletionVectorEntries(partition)) {
            if (e.bucket() == bucket) {
                indexFiles.add(e.indexFile());
            }
        }
        return BucketDeletionVectors.load(deletionVectorFiles, indexFiles);
    }

    /**
     * The compaction rewriter: for tables whose compactions look up older versions (first-row,
     * {@code changelog-producer} = lookup, {@code force-lookup}, deletion vectors) a
     * {@link LookupCompactRewriter}.
     */
    private CompactRewriter rewriter(BinaryRow partition, int bucket, MergeTreeReaders readers,
            KeyValueFileWriterFactory writerFactory, DataFilePathFactory pathFactory, BucketDeletionVectors vectors) {
        if (options.get(ChangelogOptions.CHANGELOG_PRODUCER) == ChangelogProducer.FULL_COMPACTION) {
            return new FullChangelogCompactRewriter(partition, bucket, readers, writerFactory, fileIO, pathFactory,
                    mergeFunctions, layout, MergeTreeOptions.numLevels(options) - 1, rowDeduplicate());
        }
        if (!lookupCompaction) {
            return new MergeTreeCompactRewriter(partition, bucket, readers, writerFactory, fileIO, pathFactory);
        }
        KeyValueFileReaderFactory lookupReaders = new KeyValueFileReaderFactory(fileIO, paths, layout, schemas,
                allFields(), null);
        return LookupCompactRewriter.builder(partition, bucket, readers, writerFactory, fileIO, pathFactory)
                .merges(new LookupMerges(mergeFunctions, layout, versionOrder, rowDeduplicate()))
                .lookups((p, b, files) -> new LevelLookup(lookupFiles(), lookupReaders, p, b, files))
                .maxLevel(MergeTreeOptions.numLevels(options) - 1)
                .upgradesInPlace(options.get(MergeTreeOptions.MERGE_ENGINE) == MergeEngine.DEDUPLICATE
                        && !versionOrder.usesSequenceFields())
                .produceChangelog(options.get(ChangelogOptions.CHANGELOG_PRODUCER) == ChangelogProducer.LOOKUP)
                .deletionVectors(vectors)
                .build();
    }

    /** {@code changelog-producer.row-deduplicate}: which value rows count as unchanged, or null. */
    private ValueEquality rowDeduplicate() {
        if (!options.get(ChangelogOptions.CHANGELOG_PRODUCER_ROW_DEDUPLICATE)) {
            return null;
        }
        String ignored = options.get(ChangelogOptions.CHANGELOG_PRODUCER_ROW_DEDUPLICATE_IGNORE_FIELDS);
        Set<String> names = new HashSet<>();
        if (ignored != null) {
            for (String name : ignored.split(",")) {
                if (!name.isBlank()) {
                    names.add(name.trim());
                }
            }
        }
        return ValueEquality.ignoring(layout.valueType(), names);
    }

    /** {@code lookup-wait}, {@code lookup-compact} and {@code lookup-compact.max-interval}. */
    private LevelZeroAtCommit levelZeroAtCommit() {
        int every = 1;
        if ("GENTLE".equals(options.get(LookupOptions.LOOKUP_COMPACT))) {
            int trigger = MergeTreeOptions.compactionTrigger(options);
            Integer interval = options.get(LookupOptions.LOOKUP_COMPACT_MAX_INTERVAL);
            every = Math.max(trigger, interval == null ? 2 * trigger : interval);
        }
        return new LevelZeroAtCommit(options.get(LookupOptions.LOOKUP_WAIT), every);
    }

    private int[] allFields() {
        int[] all = new int[schema.fields().size()];
        for (int i = 0; i < all.length; i++) {
            all[i] = i;
        }
        return all;
    }

    private List<ManifestEntry> restored(BinaryRow partition) throws IOException {
        List<ManifestEntry> entries = restored.get(partition);
        if (entries == null) {
            entries = state.liveFiles(partition);
            restored.put(partition, entries);
        }
        return entries;
    }

    private WriteBuffer newBuffer() {
        WriteBufferBuilder b = WriteBuffer.builder(layout.keyType(), layout.valueType(), pool)
                .onFlushRequest(buffer -> byBuffer.get(buffer).flush());
        if (versionOrder.usesSequenceFields()) {
            b.versionOrder(versionOrder);
        }
        if (options.get(MergeTreeOptions.WRITE_BUFFER_SPILLABLE)) {
            b.spillTo(spillDirectory()).maxSpillFileHandles(options.get(MergeTreeOptions.LOCAL_SORT_MAX_NUM_FILE_HANDLES));
            MemorySize maxDisk = options.get(MergeTreeOptions.WRITE_BUFFER_SPILL_MAX_DISK_SIZE);
            if (maxDisk != null) {
                b.maxSpillDiskBytes(maxDisk.bytes());
            }
        }
        return b.build();
    }

    private java.nio.file.Path spillDirectory() {
        if (spillDirectory == null) {
            try {
                Files.createDirectories(tempDirectory);
                spillDirectory = Files.createTempDirectory(tempDirectory, "streamhouse-spill-");
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot create a spill directory for the write buffer of table "
                        + tableName + " under " + tempDirectory, e);
            }
        }
        return spillDirectory;
    }

    /**
     * The local lookup files of this write's lookup compactions (one cache for all its buckets), in a
     * directory under the write's temp directory that {@link #close()} deletes.
     */
    private synchronized LookupFileCache lookupFiles() {
        if (lookupFiles == null) {
            try {
                lookupFiles = LookupFileCache.create(tempDirectory, options);
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot create the directory of local lookup files of table "
                        + tableName + " under " + tempDirectory, e);
            }
        }
        return lookupFiles;
    }

    private ExecutorService compactionExecutor() {
        if (compactionExecutor == null) {
            compactionExecutor = Executors.newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "compaction-" + tableName);
                t.setDaemon(true);
                return t;
            });
        }
        return compactionExecutor;
    }

    /** See {@link TableWrite#reportTo}: the buckets open now and those opened later. */
    void reportTo(WriterStats stats) {
        this.stats = stats;
        stats.bufferMemory(pool.totalBytes(), pool::usedBytes);
        stats.sortedRunTriggers(MergeTreeOptions.compactionTrigger(options), MergeTreeOptions.stopTrigger(options));
        pool.onPreemption(stats::bufferPreempted);
        writers.forEach((key, writer) -> writer.compactions().reportTo(stats, key));
    }

    @Override
    public void close() {
        for (MergeTreeWriter w : writers.values()) {
            w.close();
        }
        writers.clear();
        forgetCachedWriters();
        byBuffer.clear();
        if (compactionExecutor != null) {
            compactionExecutor.shutdownNow();
        }
        if (lookupFiles != null) {
            try {
                lookupFiles.close();
            } catch (IOException ignored) {
                // best effort: the directory is temporary
            }
            lookupFiles = null;
        }
        if (spillDirectory != null) {
            try (Stream<java.nio.file.Path> walk = Files.walk(spillDirectory)) {
                walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            } catch (IOException ignored) {
                // best effort; the buffer already deleted its own files
            }
        }
    }
}
