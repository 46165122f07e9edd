package dev.streamhouse.storage.manifest;

import dev.streamhouse.storage.stats.SimpleStats;

/**
 * One record of a manifest list (docs/format.md §5.3). The bucket and level bounds are null when unknown.
 */
public record ManifestFileMeta(
        String fileName,
        long fileSize,
        long numAddedFiles,
        long numDeletedFiles,
        SimpleStats partitionStats,
        long schemaId,
        Integer minBucket,
        Integer maxBucket,
        Integer minLevel,
        Integer maxLevel) {}
