package dev.streamhouse.storage;

import dev.streamhouse.storage.format.parquet.ParquetOptions;
import dev.streamhouse.storage.options.BucketOptions;
import dev.streamhouse.storage.options.CatalogOptions;
import dev.streamhouse.storage.options.ChangelogOptions;
import dev.streamhouse.storage.options.CommitOptions;
import dev.streamhouse.storage.options.CompactionTuningOptions;
import dev.streamhouse.storage.options.ConsumerOptions;
import dev.streamhouse.storage.options.FileFormatOptions;
import dev.streamhouse.storage.options.FileIndexOptions;
import dev.streamhouse.storage.options.IcebergCompatibilityOptions;
import dev.streamhouse.storage.options.LogSystemOptions;
import dev.streamhouse.storage.options.LookupOptions;
import dev.streamhouse.storage.options.ManifestOptions;
import dev.streamhouse.storage.options.MergeEngineOptions;
import dev.streamhouse.storage.options.MergeTreeOptions;
import dev.streamhouse.storage.options.PartitionLifecycleOptions;
import dev.streamhouse.storage.options.PartitionOptions;
import dev.streamhouse.storage.options.ScanOptions;
import dev.streamhouse.storage.options.SnapshotExpireOptions;
import dev.streamhouse.storage.options.StatsOptions;
import dev.streamhouse.storage.options.StreamReadOptions;
import dev.streamhouse.storage.options.TableKindOptions;
import dev.streamhouse.storage.options.TagOptions;
import dev.streamhouse.storage.options.WriteTuningOptions;
import dev.streamhouse.storage.options.OptionDeclarations;
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
                Group.ofHolder("Merge engines", Kind.TABLE, MergeEngineOptions.class),
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
