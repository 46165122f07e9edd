package dev.streamhouse.storage.table.source;

import dev.streamhouse.storage.deletionvectors.DeletionVectorIndexFile;
import dev.streamhouse.storage.deletionvectors.SnapshotDeletionFiles;
import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.index.IndexManifestFile;
import dev.streamhouse.storage.io.TablePaths;
import dev.streamhouse.storage.maintenance.consumer.ConsumerManager;
import dev.streamhouse.storage.mergetree.KeyValueLayout;
import dev.streamhouse.storage.mergetree.MergeFunctionFactory;
import dev.streamhouse.storage.mergetree.engine.MergeEngines;
import dev.streamhouse.storage.mergetree.read.KeyFilterPruner;
import dev.streamhouse.storage.mergetree.read.RawReadRule;
import dev.streamhouse.storage.metrics.ScanListener;
import dev.streamhouse.storage.operation.FileStoreScan;
import dev.streamhouse.storage.operation.SnapshotFinder;
import dev.streamhouse.storage.operation.TableFeatureCheck;
import dev.streamhouse.storage.options.ChangelogOptions;
import dev.streamhouse.storage.options.ConsumerOptions;
import dev.streamhouse.storage.options.FileFormatOptions;
import dev.streamhouse.storage.options.ManifestOptions;
import dev.streamhouse.storage.options.MergeTreeOptions;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.options.ScanOptions;
import dev.streamhouse.storage.options.StreamReadOptions;
import dev.streamhouse.storage.partition.ScanPartitions;
import dev.streamhouse.storage.predicate.Predicate;
import dev.streamhouse.storage.predicate.PredicateBuilder;
import dev.streamhouse.storage.schema.SchemaCache;
import dev.streamhouse.storage.schema.TableSchema;
import dev.streamhouse.storage.snapshot.ChangelogManager;
import dev.streamhouse.storage.snapshot.CommitKind;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.snapshot.SnapshotManager;
import dev.streamhouse.storage.types.RowType;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.IntPredicate;
import java.util.function.Supplier;

/**
 * The {@link ReadBuilder} of a data table: projection, filter and snapshot; then plans a batch read
 * ({@link #newScan()}) or a streaming read ({@link #newStreamScan()}) and reads the splits
 * ({@link #newRead()}).
 *
 * <p>A batch read reads the latest snapshot, or what the table options {@code scan.snapshot-id} /
 * {@code scan.timestamp-millis} / {@code scan.tag-name} / {@code scan.version} ({@link ScanOptions},
 * {@link TagReads}) select, or with {@code incremental-between} what
 * a range of snapshots changed ({@link IncrementalTableScan}). A streaming read starts as
 * {@code scan.mode} / {@code consumer-id} say ({@link StartingPoints}). The filter prunes partitions,
 * files and row groups; rows are filtered only with {@link TableRead#executeFilter()}.
 *
 * <p>Two settings serve the system tables that show the data: {@link #keepingRetractions()} (the
 * audit log and binlog see each key's latest version even when it is a deletion) and
 * {@link #onlyLevel(int)} (the read-optimized view reads only the top level).
 *
 * <p>The full snapshot a streaming read starts with plans the levels Paimon 1.3's first streaming
 * plan does: above level 0 with {@code changelog-producer} = lookup, the last level with
 * full-compaction, every level otherwise ({@link #streamingFirstPlanLevels}).
 *
 * <p>Primary-key tables with {@code deletion-vectors.enabled} are read as Paimon 1.3 reads them: a
 * batch read plans only the files above level 0 (level-0 files are not visible until a compaction
 * has marked the versions they replace deleted) and reads each file raw without its deleted rows. The
 * full snapshot a streaming read starts with plans the levels above, merged where level-0 files are
 * among them, the deletion vectors applied; the changes it then follows are read as for any table.
 * Full splits carry where their files' vectors are ({@link DataSplit#deletionFiles()}), from the
 * snapshot's index manifest, read once per plan.
 */
public final class DataReadBuilder implements ReadBuilder {
    private final FileIO fileIO;
    private final TablePaths paths;
    private final TableSchema schema;
    private final SchemaCache schemas;
    private final String tableName;
    private final Supplier<FileStoreScan> scanFactory;

    private int[] projection;
    private Predicate filter;
    private Long snapshotId;
    private Long timestampMillis;
    /** {@code scan.tag-name} (or {@code scan.version} naming a tag): the tag a batch read reads, or null. */
    private String tagName;
    /** {@code scan.partitions} when it is dynamic (max_pt()) and no caller resolved it yet, else null. */
    private ScanPartitions unresolvedPartitions;
    private ScanListener scanListener = ScanListener.NONE;
    private boolean keepRetractions;
    /** The only LSM level whose files are planned, or null for all. */
    private Integer level;

    public DataReadBuilder(FileIO fileIO, TablePaths paths, TableSchema schema, SchemaCache schemas, String tableName,
            Supplier<FileStoreScan> scanFactory) {
        this.fileIO = fileIO;
        this.paths = paths;
        this.schema = schema;
        this.schemas = schemas;
        this.tableName = tableName;
        this.scanFactory = scanFactory;
        this.projection = identity(schema.fields().size());
        Options options = schema.tableOptions();
        this.snapshotId = options.get(ScanOptions.SCAN_SNAPSHOT_ID);
        this.timestampMillis = ScanOptions.timestampMillis(options);
        TagReads.Version version = TagReads.resolve(fileIO, paths.root(), options, tableName);
        this.tagName = version.tagName();
        if (version.snapshotId() != null) {
            this.snapshotId = version.snapshotId();
        }
        String partitions = options.get(ScanOptions.SCAN_PARTITIONS);
        if (partitions != null) {
            ScanPartitions selection = ScanPartitions.parse(partitions, schema, tableName);
            if (selection.isDynamic()) {
                this.unresolvedPartitions = selection;
            } else {
                this.filter = selection.fixedPredicate();
            }
        }
        if (snapshotId != null && timestampMillis != null) {
            throw new IllegalArgumentException("Cannot read table " + tableName + ": options '"
                    + ScanOptions.SCAN_SNAPSHOT_ID.key() + "' and '" + ScanOptions.SCAN_TIMESTAMP_MILLIS.key()
                    + "' are both set; set only one of them");
        }
    }

    private static int[] identity(int n) {
        int[] p = new int[n];
        for (int i = 0; i < n; i++) {
            p[i] = i;
        }
        return p;
    }

    /** Read only these table columns, in this order. */
    @Override
    public DataReadBuilder withProjection(int[] positions) {
        for (int p : positions) {
            if (p < 0 || p >= schema.fields().size()) {
                throw new IllegalArgumentException("Cannot project column " + p + " of table " + tableName
                        + ": it has " + schema.fields().size() + " columns");
            }
        }
        this.projection = positions.clone();
        return this;
    }

    /** Read only the named columns, in this order. */
    @Override
    public DataReadBuilder withProjection(List<String> columns) {
        RowType t = schema.rowType();
        int[] p = new int[columns.size()];
        for (int i = 0; i < p.length; i++) {
            p[i] = t.requireFieldIndex(columns.get(i));
        }
        return withProjection(p);
    }

    /** A predicate over the full table row; AND-ed with earlier filters. */
    @Override
    public DataReadBuilder withFilter(Predicate predicate) {
        if (predicate != null) {
            this.filter = filter == null ? predicate : PredicateBuilder.and(filter, predicate);
        }
        return this;
    }

    @Override
    public DataReadBuilder withScanListener(ScanListener listener) {
        this.scanListener = java.util.Objects.requireNonNull(listener, "listener");
        return this;
    }

    /**
     * Reads only the partitions {@code partitions} (a predicate over partition columns of the table
     * row) selects, in place of a dynamic {@code scan.partitions} (max_pt()), which only a lookup join
     * can follow; AND-ed with the other filters.
     */
    @Override
    public DataReadBuilder withResolvedPartitions(Predicate partitions) {
        this.unresolvedPartitions = null;
        return withFilter(partitions);
    }

    /**
     * Read this snapshot instead of the latest (time travel); overrides the options
     * {@code scan.snapshot-id} and {@code scan.timestamp-millis}. Planning fails if it does not exist.
     */
    @Override
    public DataReadBuilder withSnapshot(long id) {
        this.snapshotId = id;
        this.timestampMillis = null;
        this.tagName = null;
        return this;
    }

    /**
     * Read the latest snapshot committed at or before {@code timestampMillis} (epoch millis), as
     * {@code FOR SYSTEM_TIME AS OF} does; overrides {@code scan.snapshot-id} and
     * {@code scan.timestamp-millis}. Planning fails with an {@link IllegalArgumentException} if every
     * snapshot is younger; an empty table reads as empty. Rows are read with this table's schema.
     */
    @Override
    public DataReadBuilder withTimestampMillis(long timestampMillis) {
        this.timestampMillis = timestampMillis;
        this.snapshotId = null;
        this.tagName = null;
        return this;
    }

    /**
     * Full splits of a primary-key table return every key's merged version with its kind, also when
     * it is a retraction (-D, -U) that a plain read leaves out; delta splits are unchanged (they keep
     * all kinds anyway). For the audit log and binlog of the table.
     */
    public DataReadBuilder keepingRetractions() {
        this.keepRetractions = true;
        return this;
    }

    /**
     * Plan only the files at LSM level {@code level} (batch scans and the changes of
     * {@code incremental-between}); streaming reads are refused. For the read-optimized view, which
     * reads the top level only.
     *
     * @throws IllegalArgumentException if the level is negative
     */
    public DataReadBuilder onlyLevel(int level) {
        if (level < 0) {
            throw new IllegalArgumentException("Cannot read level " + level + " of table " + tableName
                    + ": levels start at 0");
        }
        this.level = level;
        return this;
    }

    @Override
    public RowType readType() {
        return schema.rowType().project(projection);
    }

    /**
     * Plans a batch read: the chosen snapshot, or with option {@code incremental-between} the changes
     * of a range of snapshots.
     *
     * @throws IllegalArgumentException if {@code incremental-between} is malformed
     */
    @Override
    public TableScan newScan() {
        TableFeatureCheck.checkOptions(schema, tableName, TableFeatureCheck.Access.BATCH_READ);
        checkPartitionsResolved();
        TableScan diff = new DiffScans(fileIO, paths.root(), schema, tableName, () -> filtered(newFileScan()),
                rawReadPolicy(), deletionVectorsEnabled()).scanOrNull();
        if (diff != null) {
            return diff;
        }
        long[] range = DiffScans.incrementalRange(schema, tableName);
        String betweenTimes = schema.tableOptions().get(ScanOptions.INCREMENTAL_BETWEEN_TIMESTAMP);
        if (range == null && betweenTimes != null) {
            range = IncrementalTimestamps.range(newFileScan().snapshotManager(), betweenTimes, tableName);
        }
        if (range != null) {
            return new IncrementalTableScan(newFileScan().snapshotManager(),
                    new ChangelogManager(fileIO, paths.root()),
                    changePlanner(incrementalChangeSource(), false), range[0], range[1], tableName);
        }
        FileStoreScan scan = newFileScan();
        if (tagName != null) {
            scan.withTaggedSnapshot(TagReads.taggedSnapshot(fileIO, paths.root(), tagName, tableName));
        } else if (snapshotId != null) {
            scan.withSnapshot(snapshotId);
        } else if (timestampMillis != null) {
            scan.withTimestampMillis(timestampMillis);
        } else if (schema.tableOptions().get(ScanOptions.SCAN_MODE) == ScanOptions.StartupMode.COMPACTED_FULL) {
            latestCompactedSnapshot(scan.snapshotManager()).ifPresent(scan::withSnapshot);
        }
        return snapshotScan(scan, true);
    }

    /**
     * Plans a streaming read; see {@link StreamTableScan} and {@link StartingPoints}. The snapshot set
     * with {@link #withSnapshot} / {@link #withTimestampMillis} (or the options) is where
     * {@code from-snapshot(-full)} / {@code from-timestamp} start.
     *
     * @throws IllegalArgumentException if {@code incremental-between} is set (a batch option) or the
     *     scan mode needs an option that is not set
     */
    @Override
    public StreamTableScan newStreamScan() {
        if (level != null) {
            throw new UnsupportedOperationException("Cannot stream-read only level " + level + " of table "
                    + tableName + " (its read-optimized view): new changes arrive as level-0 files, which such a "
                    + "read never sees; read it in batch mode, or stream-read the table itself");
        }
        TableFeatureCheck.checkOptions(schema, tableName, TableFeatureCheck.Access.STREAM_READ);
        checkPartitionsResolved();
        MergeEngines.streamingReadRefusal(schema).ifPresent(reason -> {
            throw new UnsupportedOperationException("Cannot stream-read table " + tableName + ": " + reason);
        });
        Options options = schema.tableOptions();
        if (tagName != null) {
            throw TagReads.streamingRefusal(tagName, tableName);
        }
        if (options.get(ScanOptions.SCAN_MODE) == ScanOptions.StartupMode.INCREMENTAL) {
            throw new IllegalArgumentException("Cannot stream-read table " + tableName + " with option '"
                    + ScanOptions.SCAN_MODE.key() + "' = '" + ScanOptions.StartupMode.INCREMENTAL + "': incremental "
                    + "reads are batch reads (Apache Paimon 1.3 refuses them in streaming mode too); read in batch "
                    + "mode, or choose another scan mode");
        }
        for (var incremental : List.of(ScanOptions.INCREMENTAL_BETWEEN, ScanOptions.INCREMENTAL_BETWEEN_TIMESTAMP,
                ScanOptions.INCREMENTAL_TO_AUTO_TAG)) {
            if (options.get(incremental) != null) {
                throw new IllegalArgumentException("Cannot stream-read table " + tableName + " with option '"
                        + incremental.key() + "': it is for batch reads; remove it or read in batch");
            }
        }
        SnapshotManager snapshots = newFileScan().snapshotManager();
        ConsumerManager consumers = new ConsumerManager(fileIO, paths.root());
        String consumerId = options.get(ConsumerOptions.CONSUMER_ID);
        ChangelogManager changelogs = new ChangelogManager(fileIO, paths.root());
        StartingPoints start = new StartingPoints(snapshots, changelogs, options.get(ScanOptions.SCAN_MODE), snapshotId,
                timestampMillis, consumers, consumerId, options.get(ConsumerOptions.CONSUMER_IGNORE_PROGRESS),
                tableName);
        return new DataTableStreamScan(start, id -> snapshotScan(newFileScan().withSnapshot(id), false),
                changePlanner(options.get(ChangelogOptions.CHANGELOG_PRODUCER), readsOverwrites(options)), snapshots,
                changelogs, consumers, consumerId, tableName);
    }

    private void checkPartitionsResolved() {
        if (unresolvedPartitions != null) {
            throw new IllegalArgumentException("Cannot read table " + tableName + " with option '"
                    + ScanOptions.SCAN_PARTITIONS.key() + "' = '" + unresolvedPartitions.text() + "': the newest "
                    + "partitions (max_pt(), max_two_pt()) are only followed by lookup joins; name the partitions, "
                    + "e.g. 'dt=2024-01-01', or filter with WHERE");
        }
    }

    /** The latest COMPACT snapshot (what a batch read with {@code scan.mode} = compacted-full reads), if any. */
    private Optional<Long> latestCompactedSnapshot(SnapshotManager snapshots) {
        try {
            return SnapshotFinder.latestOfKind(snapshots, CommitKind.COMPACT).map(Snapshot::id);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the snapshots of table " + tableName, e);
        }
    }

    /** Whether a streaming read of this table reads OVERWRITE snapshots (the option depends on the table kind). */
    private boolean readsOverwrites(Options options) {
        return schema.hasPrimaryKey()
                ? options.get(StreamReadOptions.STREAMING_READ_OVERWRITE)
                : options.get(StreamReadOptions.STREAMING_READ_APPEND_OVERWRITE);
    }

    /** Whether the files of one bucket can be read without merging. */
    private SnapshotTableScan.RawReadPolicy rawReadPolicy() {
        if (!schema.hasPrimaryKey()) {
            return files -> true;
        }
        Options options = schema.tableOptions();
        boolean deletionVectors = options.get(MergeTreeOptions.DELETION_VECTORS_ENABLED);
        MergeFunctionFactory engine = MergeEngines.create(schema);
        return files -> RawReadRule.rawConvertible(files, deletionVectors, engine);
    }

    /**
     * The changelog producer whose files {@code incremental-between} reads, per
     * {@code incremental-between-scan-mode}: none for delta files of APPEND snapshots, lookup for the
     * changelog files of APPEND and COMPACT snapshots.
     */
    private ChangelogOptions.ChangelogProducer incrementalChangeSource() {
        Options options = schema.tableOptions();
        switch (options.get(ScanOptions.INCREMENTAL_BETWEEN_SCAN_MODE)) {
            case DELTA:
                return ChangelogOptions.ChangelogProducer.NONE;
            case CHANGELOG:
                return ChangelogOptions.ChangelogProducer.LOOKUP;
            case AUTO:
                return options.get(ChangelogOptions.CHANGELOG_PRODUCER) == ChangelogOptions.ChangelogProducer.NONE
                        ? ChangelogOptions.ChangelogProducer.NONE
                        : ChangelogOptions.ChangelogProducer.LOOKUP;
            case DIFF:
            default:
                throw new IllegalArgumentException("Cannot read table " + tableName + ": option '"
                        + ScanOptions.INCREMENTAL_BETWEEN_SCAN_MODE.key() + "' = '"
                        + options.get(ScanOptions.INCREMENTAL_BETWEEN_SCAN_MODE) + "' is not supported; use 'auto', "
                        + "'delta' or 'changelog'");
        }
    }

    /**
     * Plans the changes of single snapshots with this read's filters.
     *
     * @param producer decides which files hold a snapshot's changes ({@link SnapshotChangePlanner})
     */
    private SnapshotChangePlanner changePlanner(ChangelogOptions.ChangelogProducer producer, boolean readOverwrite) {
        KeyFilterPruner keyPruner = null;
        if (schema.hasPrimaryKey()) {
            Predicate keyFilter = KeyFilterPruner.keyFilterOf(filter, schema.rowType(), KeyValueLayout.of(schema).keyType());
            keyPruner = keyFilter == null ? null : new KeyFilterPruner(KeyValueLayout.of(schema).keyType(), keyFilter);
        }
        return new SnapshotChangePlanner(() -> filtered(newFileScan()), keyPruner, schema.hasPrimaryKey(),
                producer, readOverwrite, tableName);
    }

    /**
     * Adds the level, the partition filter and, for append tables, the value filter to a file store
     * scan.
     */
    private FileStoreScan newFileScan() {
        return scanFactory.get().withListener(scanListener);
    }

    private FileStoreScan filtered(FileStoreScan scan) {
        if (level != null) {
            scan.withLevel(level);
        }
        if (filter != null) {
            partitionFilter().ifPresent(scan::withPartitionFilter);
            if (!schema.hasPrimaryKey()) {
                scan.withValueFilter(filter);
            }
        }
        return scan;
    }

    /**
     * The full splits of the snapshot {@code scan} selects.
     *
     * @param batch a batch read, as opposed to the first plan of a streaming read
     */
    private TableScan snapshotScan(FileStoreScan scan, boolean batch) {
        filtered(scan);
        SnapshotTableScan.BucketFilter byBucketKey = FullPlanFilters.bucketKeyFilter(schema, filter);
        if (!schema.hasPrimaryKey()) {
            Options options = schema.tableOptions();
            SnapshotTableScan.SplitPacking packing = new SnapshotTableScan.SplitPacking(
                    options.get(ScanOptions.SOURCE_SPLIT_TARGET_SIZE).bytes(),
                    options.get(ScanOptions.SOURCE_SPLIT_OPEN_FILE_COST).bytes());
            return new SnapshotTableScan(scan, rawReadPolicy(), null, byBucketKey, packing, null, tableName);
        }
        MergeFunctionFactory engine = MergeEngines.create(schema);
        IntPredicate levels = batch ? FullPlanFilters.batchLevels(schema, engine)
                : FullPlanFilters.streamingFirstPlanLevels(schema, engine);
        if (levels != null && level == null) {
            scan.withLevelFilter(levels);
        }
        KeyValueLayout layout = KeyValueLayout.of(schema);
        Predicate keyFilter = KeyFilterPruner.keyFilterOf(filter, schema.rowType(), layout.keyType());
        return new SnapshotTableScan(scan, rawReadPolicy(),
                keyFilter == null ? null : new KeyFilterPruner(layout.keyType(), keyFilter),
                FullPlanFilters.both(byBucketKey, FullPlanFilters.wholeBucketFilter(schema, schemas, filter, engine)),
                null,
                deletionVectorsEnabled() ? deletionFilesLoader() : null, tableName);
    }

    /** Where the deletion vectors of a snapshot are (read once per plan, from its index manifest). */
    private SnapshotDeletionFiles.Loader deletionFilesLoader() {
        Options options = schema.tableOptions();
        return new SnapshotDeletionFiles.Loader(new SnapshotManager(fileIO, paths.root()),
                new IndexManifestFile(fileIO, paths.manifestDir(), options.get(ManifestOptions.MANIFEST_COMPRESSION),
                        options.get(FileFormatOptions.ZSTD_LEVEL)),
                DeletionVectorIndexFile.of(fileIO, paths.root(), tableName, options), tableName);
    }

    private java.util.Optional<Predicate> partitionFilter() {
        List<String> names = schema.fieldNames();
        int[] mapping = new int[names.size()];
        List<String> partitionKeys = new ArrayList<>(schema.partitionKeys());
        for (int i = 0; i < mapping.length; i++) {
            mapping[i] = partitionKeys.indexOf(names.get(i));
        }
        return PredicateBuilder.pickByFieldMapping(filter, mapping);
    }

    private boolean deletionVectorsEnabled() {
        return FullPlanFilters.deletionVectorsEnabled(schema);
    }

    /**
     * Reads splits of this table. Full splits of a table with deletion vectors carry where their
     * vectors are ({@link DataSplit#deletionFiles()}); only splits serialized before they did are
     * looked up from their snapshot's index manifest.
     */
    @Override
    public DataTableRead newRead() {
        return new DataTableRead(fileIO, paths, schema, schemas, tableName, projection, filter, keepRetractions,
                deletionVectorsEnabled() ? deletionFilesLoader() : null);
    }
}
