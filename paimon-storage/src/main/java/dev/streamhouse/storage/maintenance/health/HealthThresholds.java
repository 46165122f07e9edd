package dev.streamhouse.storage.maintenance.health;

import dev.streamhouse.storage.options.BucketOptions;
import dev.streamhouse.storage.options.CompactionTuningOptions;
import dev.streamhouse.storage.options.ConsumerOptions;
import dev.streamhouse.storage.options.FileFormatOptions;
import dev.streamhouse.storage.options.MergeTreeOptions;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.options.PartitionLifecycleOptions;
import dev.streamhouse.storage.options.SnapshotExpireOptions;
import dev.streamhouse.storage.options.TagOptions;
import dev.streamhouse.storage.schema.TableSchema;

import java.time.Duration;

/**
 * The limits {@link TableHealth} measures against, each derived from one or two of the table's own
 * options (see {@link TableHealth} for which check uses which). Plain values, so the checks do not
 * read options themselves.
 *
 * @param primaryKey whether the table has a primary key (an LSM tree per bucket) or is an append table
 * @param buckets the {@code bucket} option ({@code -1} dynamic)
 * @param compactionTrigger {@code num-sorted-run.compaction-trigger}
 * @param stopTrigger {@code num-sorted-run.stop-trigger} (default trigger + 3)
 * @param writeBufferBytes {@code write-buffer-size}
 * @param targetFileBytes {@code target-file-size} (default 128 MiB with a primary key, 256 MiB without)
 * @param smallFileBytes 70 % of {@code target-file-size}: the size below which the writers themselves
 *     treat a file as a compaction candidate
 * @param smallFilesPerBucket small files a bucket may hold before the writers would compact them: the
 *     compaction trigger with a primary key, {@code compaction.min.file-num} without
 * @param maxSizeAmplificationPercent {@code compaction.max-size-amplification-percent}
 * @param deleteRatio {@code compaction.delete-ratio-threshold}
 * @param snapshotsMin {@code snapshot.num-retained.min}
 * @param snapshotsMax {@code snapshot.num-retained.max}
 * @param snapshotTimeRetained {@code snapshot.time-retained}
 * @param changelogsMax {@code changelog.num-retained.max} (default {@code snapshot.num-retained.max})
 * @param consumerExpiration {@code consumer.expiration-time}, or null
 * @param partitionExpiration {@code partition.expiration-time}, or null
 * @param tagsMax {@code tag.num-retained-max}, or null
 * @param dynamicBucketTargetRows {@code dynamic-bucket.target-row-num}
 * @param bloomFilterColumns {@code file-index.bloom-filter.columns}, or null
 */
public record HealthThresholds(boolean primaryKey, int buckets, int compactionTrigger, int stopTrigger,
        long writeBufferBytes, long targetFileBytes, long smallFileBytes, int smallFilesPerBucket,
        int maxSizeAmplificationPercent, double deleteRatio, int snapshotsMin, int snapshotsMax,
        Duration snapshotTimeRetained, int changelogsMax, Duration consumerExpiration,
        Duration partitionExpiration, Integer tagsMax, long dynamicBucketTargetRows, String bloomFilterColumns) {

    /** The option naming the bloom-filter columns of the file index. */
    public static final String BLOOM_FILTER_COLUMNS = "file-index.bloom-filter.columns";

    /** The thresholds of a table with this schema. */
    public static HealthThresholds of(TableSchema schema) {
        Options o = schema.tableOptions();
        boolean pk = schema.hasPrimaryKey();
        long target = FileFormatOptions.targetFileSizeBytes(o, pk);
        int snapshotsMax = o.get(SnapshotExpireOptions.SNAPSHOT_NUM_RETAINED_MAX);
        Integer changelogsMax = o.get(SnapshotExpireOptions.CHANGELOG_NUM_RETAINED_MAX);
        return new HealthThresholds(pk,
                o.get(BucketOptions.BUCKET),
                MergeTreeOptions.compactionTrigger(o),
                MergeTreeOptions.stopTrigger(o),
                o.get(MergeTreeOptions.WRITE_BUFFER_SIZE).bytes(),
                target,
                target / 10 * 7,
                pk ? MergeTreeOptions.compactionTrigger(o) : o.get(CompactionTuningOptions.COMPACTION_MIN_FILE_NUM),
                o.get(MergeTreeOptions.COMPACTION_MAX_SIZE_AMPLIFICATION_PERCENT),
                o.get(CompactionTuningOptions.COMPACTION_DELETE_RATIO_THRESHOLD),
                o.get(SnapshotExpireOptions.SNAPSHOT_NUM_RETAINED_MIN),
                snapshotsMax,
                o.get(SnapshotExpireOptions.SNAPSHOT_TIME_RETAINED),
                changelogsMax != null ? changelogsMax : snapshotsMax,
                o.get(ConsumerOptions.CONSUMER_EXPIRATION_TIME),
                o.get(PartitionLifecycleOptions.PARTITION_EXPIRATION_TIME),
                o.get(TagOptions.TAG_NUM_RETAINED_MAX),
                o.get(MergeTreeOptions.DYNAMIC_BUCKET_TARGET_ROW_NUM),
                o.get(BLOOM_FILTER_COLUMNS));
    }

    /** The size amplification limit as a factor: 1 + percent / 100 (3 at the default 200 %). */
    public double skewFactor() {
        return 1 + maxSizeAmplificationPercent / 100.0;
    }
}
