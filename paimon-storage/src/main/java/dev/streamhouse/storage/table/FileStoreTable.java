package dev.streamhouse.storage.table;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.index.IndexManifestFile;
import dev.streamhouse.storage.io.TablePaths;
import dev.streamhouse.storage.maintenance.expire.FileCleanup;
import dev.streamhouse.storage.maintenance.expire.SnapshotExpiration;
import dev.streamhouse.storage.maintenance.expire.TaggedSnapshots;
import dev.streamhouse.storage.maintenance.expire.UnusedFileCleanup;
import dev.streamhouse.storage.manifest.ManifestCache;
import dev.streamhouse.storage.manifest.ManifestFile;
import dev.streamhouse.storage.manifest.ManifestList;
import dev.streamhouse.storage.operation.CommitSettings;
import dev.streamhouse.storage.operation.FileStatsMapper;
import dev.streamhouse.storage.operation.FileStoreCommit;
import dev.streamhouse.storage.operation.FileStoreScan;
import dev.streamhouse.storage.operation.FileTotals;
import dev.streamhouse.storage.operation.IndexFileCheck;
import dev.streamhouse.storage.operation.ManifestFilter;
import dev.streamhouse.storage.operation.SnapshotEntries;
import dev.streamhouse.storage.options.FileFormatOptions;
import dev.streamhouse.storage.options.InvalidOptionsException;
import dev.streamhouse.storage.options.ManifestOptions;
import dev.streamhouse.storage.options.OptionValidator;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.options.PartitionOptions;
import dev.streamhouse.storage.schema.SchemaCache;
import dev.streamhouse.storage.schema.SchemaManager;
import dev.streamhouse.storage.schema.TableSchema;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.snapshot.SnapshotManager;
import dev.streamhouse.storage.table.sink.BatchTableCommit;
import dev.streamhouse.storage.table.sink.TableCommit;
import dev.streamhouse.storage.table.sink.TableWrite;
import dev.streamhouse.storage.table.sink.WriteContext;
import dev.streamhouse.storage.table.sink.TableBucketAssigner;
import dev.streamhouse.storage.table.source.DataReadBuilder;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.LongSupplier;

/** A table stored in the Paimon format under one directory. */
public final class FileStoreTable implements Table, java.io.Serializable {
    private static final long serialVersionUID = 1L;

    private final FileIO fileIO;
    private final Path root;
    private final String fullName;
    private final TableSchema schema;
    private final TablePaths paths;
    /** What commits or tag changes keep in step in the catalog's metastore, or null. */
    private final dev.streamhouse.storage.table.sink.MetastorePartitions metastorePartitions;
    private transient SchemaManager schemaManager;
    private transient SnapshotManager snapshotManager;
    private transient SchemaCache schemaCache;
    private transient IndexFileCheck indexFileCheck;
    /** The catalog's cache of decoded manifests; null (no cache) once the table was serialized. */
    private final transient ManifestCache manifestCache;

    public FileStoreTable(FileIO fileIO, Path root, String fullName, TableSchema schema) {
        this(fileIO, root, fullName, schema, null, ManifestCache.NONE);
    }

    private FileStoreTable(FileIO fileIO, Path root, String fullName, TableSchema schema,
                           dev.streamhouse.storage.table.sink.MetastorePartitions metastorePartitions,
                           ManifestCache manifestCache) {
        this.metastorePartitions = metastorePartitions;
        this.manifestCache = manifestCache;
        this.fileIO = fileIO;
        this.root = root;
        this.fullName = fullName;
        this.schema = schema;
        Options options = schema.tableOptions();
        this.paths = new TablePaths(root, new TablePaths.RendererSpec(schema.partitionType(),
                options.get(PartitionOptions.PARTITION_DEFAULT_NAME), options.get(PartitionOptions.PARTITION_LEGACY_NAME)));
    }

    /**
     * This table, keeping {@code partitions} in step: its commits the partitions they add and drop, or its
     * tag changes the tags' partitions (a Hive metastore's, with {@code metastore.partitioned-table} or
     * {@code metastore.tag-to-partition}).
     */
    public FileStoreTable withMetastorePartitions(dev.streamhouse.storage.table.sink.MetastorePartitions partitions) {
        return new FileStoreTable(fileIO, root, fullName, schema, partitions, manifestCache);
    }

    /** This table, reading manifests through {@code cache} (its catalog's, shared by the catalog's tables). */
    public FileStoreTable withManifestCache(ManifestCache cache) {
        return new FileStoreTable(fileIO, root, fullName, schema, metastorePartitions, cache);
    }

    /** Loads the latest schema of the table at {@code root}. */
    public static FileStoreTable load(FileIO fileIO, Path root, String fullName) {
        try {
            TableSchema schema = new SchemaManager(fileIO, root).latest().orElseThrow(() ->
                    new IllegalArgumentException("Cannot load table " + fullName + ": no schema file under " + root));
            return new FileStoreTable(fileIO, root, fullName, schema);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot load table " + fullName + " at " + root, e);
        }
    }

    public FileIO fileIO() {
        return fileIO;
    }

    public Path location() {
        return root;
    }

    public TablePaths paths() {
        return paths;
    }

    public SnapshotManager snapshotManager() {
        if (snapshotManager == null) {
            snapshotManager = new SnapshotManager(fileIO, root);
        }
        return snapshotManager;
    }

    /**
     * The table's tags ({@code tag/tag-<name>}); deleting tags through it also deletes the files only
     * they used ({@link #fileCleanup()}).
     */
    public dev.streamhouse.storage.maintenance.tag.TagManager tagManager() {
        return new dev.streamhouse.storage.maintenance.tag.TagManager(fileIO, root, fileCleanup(),
                metastorePartitions != null && metastorePartitions.isTags() ? metastorePartitions : null);
    }

    /**
     * Deletes the files that snapshots, tags and long-lived changelog entries removed by a rollback or a
     * tag deletion were the last to use ({@link UnusedFileCleanup}).
     */
    public FileCleanup fileCleanup() {
        ManifestFile manifestFile = manifestFile();
        ManifestList manifestList = manifestList();
        return new UnusedFileCleanup(fileIO, paths, snapshotManager(), manifestList, manifestFile,
                indexManifestFile(), new SnapshotEntries(manifestList, manifestFile, schema.partitionType()),
                taggedSnapshots(), fullName);
    }

    /** The snapshots the tags hold; an unreadable tag is an IOException (TaggedSnapshots' contract). */
    private TaggedSnapshots taggedSnapshots() {
        return () -> {
            try {
                return new dev.streamhouse.storage.maintenance.tag.TagManager(fileIO, root).taggedSnapshots();
            } catch (dev.streamhouse.storage.maintenance.tag.CorruptTagException e) {
                throw new java.io.IOException(e.getMessage(), e);
            }
        };
    }

    public SchemaManager schemaManager() {
        if (schemaManager == null) {
            schemaManager = new SchemaManager(fileIO, root);
        }
        return schemaManager;
    }

    /** Schema versions by id, cached. */
    public SchemaCache schemaCache() {
        if (schemaCache == null) {
            schemaCache = new SchemaCache(schemaManager());
        }
        return schemaCache;
    }

    @Override
    public String fullName() {
        return fullName;
    }

    @Override
    public TableSchema schema() {
        return schema;
    }

    @Override
    public Optional<Snapshot> latestSnapshot() {
        try {
            return snapshotManager().latestSnapshot();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the latest snapshot of table " + fullName, e);
        }
    }

    @Override
    public Optional<Snapshot> snapshot(long id) {
        try {
            SnapshotManager snapshots = snapshotManager();
            return snapshots.snapshotExists(id) ? Optional.of(snapshots.snapshot(id)) : Optional.empty();
        } catch (java.io.FileNotFoundException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read snapshot " + id + " of table " + fullName, e);
        }
    }

    @Override
    public List<Partition> partitions() {
        try {
            Optional<Snapshot> latest = latestSnapshot();
            if (latest.isEmpty()) {
                return List.of();
            }
            List<Partition> out = new ArrayList<>();
            for (Map.Entry<BinaryRow, FileTotals> e :
                    FileTotals.byPartition(snapshotEntries().liveEntries(latest.get(), ManifestFilter.ALL)).entrySet()) {
                FileTotals t = e.getValue();
                out.add(new Partition(e.getKey(), paths.renderer().values(e.getKey()), t.recordCount(),
                        t.fileSizeInBytes(), t.fileCount(), t.lastCreationMillis()));
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot list the partitions of table " + fullName, e);
        }
    }

    /** Reads and writes this table's data manifests. */
    public ManifestFile manifestFile() {
        Options o = schema.tableOptions();
        return new ManifestFile(fileIO, paths.manifestDir(), schema.partitionType(),
                o.get(ManifestOptions.MANIFEST_COMPRESSION), o.get(FileFormatOptions.ZSTD_LEVEL),
                o.get(ManifestOptions.MANIFEST_TARGET_FILE_SIZE).bytes(),
                manifestCache == null ? ManifestCache.NONE : manifestCache);
    }

    /** Reads and writes this table's manifest lists. */
    public ManifestList manifestList() {
        Options o = schema.tableOptions();
        return new ManifestList(fileIO, paths.manifestDir(), o.get(ManifestOptions.MANIFEST_COMPRESSION),
                o.get(FileFormatOptions.ZSTD_LEVEL));
    }

    public IndexManifestFile indexManifestFile() {
        Options o = schema.tableOptions();
        return new IndexManifestFile(fileIO, paths.manifestDir(), o.get(ManifestOptions.MANIFEST_COMPRESSION),
                o.get(FileFormatOptions.ZSTD_LEVEL));
    }

    IndexFileCheck indexFileCheck() {
        if (indexFileCheck == null) {
            indexFileCheck = new IndexFileCheck(indexManifestFile(), schema, fullName);
        }
        return indexFileCheck;
    }

    /** Reads live files of snapshots. */
    public SnapshotEntries snapshotEntries() {
        return new SnapshotEntries(manifestList(), manifestFile(), schema.partitionType());
    }

    /** A fresh low-level scan of this table. */
    public FileStoreScan newFileStoreScan() {
        return new FileStoreScan(snapshotManager(), snapshotEntries(), indexFileCheck(),
                new FileStatsMapper(schema.rowType(), schemaCache()), fullName);
    }

    @Override
    public DataReadBuilder newReadBuilder() {
        return new DataReadBuilder(fileIO, paths, schema, schemaCache(), fullName, this::newFileStoreScan);
    }

    @Override
    public TableWrite newWrite(WriteContext context) {
        return TableWrites.newWrite(this, context);
    }

    @Override
    public TableBucketAssigner newBucketAssigner(WriteContext context) {
        return TableWrites.newBucketAssigner(this, context);
    }

    private FileStoreCommit newFileStoreCommit(String commitUser) {
        ManifestFile manifestFile = manifestFile();
        ManifestList manifestList = manifestList();
        return new FileStoreCommit(fileIO, paths.manifestDir(), fullName, schemaManager(), snapshotManager(),
                new SnapshotEntries(manifestList, manifestFile, schema.partitionType()),
                manifestFile, manifestList, indexManifestFile(), CommitSettings.from(schema.tableOptions()), commitUser);
    }

    /** Snapshot expiration of this table, protecting the tags in {@code tag/}. */
    public SnapshotExpiration newSnapshotExpiration() {
        // An unreadable tag is an IOException, which stops expiration.
        return newSnapshotExpiration(taggedSnapshots(), System::currentTimeMillis);
    }

    /** Snapshot expiration protecting {@code tags}, with {@code clockMillis} as the current time. */
    public SnapshotExpiration newSnapshotExpiration(TaggedSnapshots tags, LongSupplier clockMillis) {
        ManifestFile manifestFile = manifestFile();
        ManifestList manifestList = manifestList();
        return new SnapshotExpiration(fileIO, paths, snapshotManager(), manifestList, manifestFile,
                indexManifestFile(), new SnapshotEntries(manifestList, manifestFile, schema.partitionType()), tags,
                clockMillis, fullName);
    }

    @Override
    public BatchTableCommit newBatchCommit() {
        return new BatchTableCommit(newStreamCommit(UUID.randomUUID().toString()));
    }

    @Override
    public TableCommit newStreamCommit(String commitUser) {
        return CommitHooks.assemble(this, newFileStoreCommit(commitUser), metastorePartitions);
    }

    /**
     * {@inheritDoc}
     *
     * @throws dev.streamhouse.storage.options.InvalidOptionsException if a dynamic option is invalid, not
     *     supported yet, changes an immutable option or contradicts the others; options without effect
     *     yet are logged as warnings
     */
    @Override
    public FileStoreTable copy(Map<String, String> dynamicOptions) {
        try {
            OptionValidator.instance().checkDynamicOptions("Table " + fullName, schema.shape(), schema.options(),
                    dynamicOptions);
        } catch (InvalidOptionsException e) {
            throw new InvalidOptionsException("Cannot use table " + fullName + " with dynamic options", e.problems());
        }
        Map<String, String> merged = new HashMap<>(schema.options());
        merged.putAll(dynamicOptions);
        TableSchema copied = new TableSchema(schema.version(), schema.id(), schema.fields(), schema.highestFieldId(),
                schema.partitionKeys(), schema.primaryKeys(), merged, schema.comment(), schema.timeMillis());
        return new FileStoreTable(fileIO, root, fullName, copied, metastorePartitions, manifestCache);
    }

    @Override
    public FileStoreTable atSchema(long schemaId) {
        if (schemaId == schema.id()) {
            return this;
        }
        try {
            return new FileStoreTable(fileIO, root, fullName, schemaManager().schema(schemaId), metastorePartitions,
                    manifestCache);
        } catch (java.io.FileNotFoundException e) {
            throw new IllegalArgumentException("Table " + fullName + " has no schema " + schemaId, e);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("Cannot read schema " + schemaId + " of table " + fullName, e);
        }
    }

    @Override
    public String toString() {
        return "FileStoreTable{" + fullName + " at " + root + "}";
    }
}
