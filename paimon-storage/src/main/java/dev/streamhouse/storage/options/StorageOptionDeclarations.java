package dev.streamhouse.storage.options;

import dev.streamhouse.storage.format.parquet.ParquetOptions;
import dev.streamhouse.storage.options.OptionDeclarations.Group;
import dev.streamhouse.storage.options.OptionDeclarations.Kind;

import java.util.List;

/** The table and catalog options of the storage module, by area. */
public final class StorageOptionDeclarations implements OptionDeclarations {

    @Override
    public List<Group> groups() {
        return List.of(
                Group.ofHolder("Table kind and features", Kind.TABLE, TableKindOptions.class),
                Group.ofHolder("Buckets", Kind.TABLE, BucketOptions.class),
                Group.ofHolder("Primary keys: merge tree, write buffer and compaction", Kind.TABLE,
                        MergeTreeOptions.class),
                Group.ofHolder("Merge engines not implemented yet", Kind.TABLE, MergeEngineOptions.class),
                Group.ofHolder("Changelog", Kind.TABLE, ChangelogOptions.class),
                Group.ofHolder("Lookup compaction", Kind.TABLE, LookupOptions.class),
                Group.ofHolder("Compaction tuning", Kind.TABLE, CompactionTuningOptions.class),
                Group.ofHolder("Reader and writer tuning", Kind.TABLE, WriteTuningOptions.class),
                Group.ofHolder("Data files", Kind.TABLE, FileFormatOptions.class),
                Group.ofHolder("Parquet", Kind.TABLE, ParquetOptions.class),
                Group.ofHolder("File indexes", Kind.TABLE, FileIndexOptions.class),
                Group.ofHolder("Statistics", Kind.TABLE, StatsOptions.class),
                Group.ofHolder("Manifests", Kind.TABLE, ManifestOptions.class),
                Group.ofHolder("Partitions", Kind.TABLE, PartitionOptions.class),
                Group.ofHolder("Partition lifecycle", Kind.TABLE, PartitionLifecycleOptions.class),
                Group.ofHolder("Commits", Kind.TABLE, CommitOptions.class),
                Group.ofHolder("Snapshot expiration", Kind.TABLE, SnapshotExpireOptions.class),
                Group.ofHolder("Tags", Kind.TABLE, TagOptions.class),
                Group.ofHolder("Scans and time travel", Kind.TABLE, ScanOptions.class),
                Group.ofHolder("Streaming reads", Kind.TABLE, StreamReadOptions.class),
                Group.ofHolder("Consumers", Kind.TABLE, ConsumerOptions.class),
                Group.ofHolder("Iceberg compatibility", Kind.TABLE, IcebergCompatibilityOptions.class),
                Group.ofHolder("External log system", Kind.TABLE, LogSystemOptions.class),
                Group.ofHolder("Catalog", Kind.CATALOG, CatalogOptions.class));
    }
}
