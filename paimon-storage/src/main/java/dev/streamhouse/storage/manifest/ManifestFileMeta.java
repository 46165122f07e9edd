package dev.streamhouse.storage.manifest;

import dev.streamhouse.storage.stats.SimpleStats;

import java.util.List;

/**
 * One record of a manifest list (docs/format.md §5.3). The bucket and level bounds are null when unknown.
 *
 * @param newerFields the fields of a newer Paimon the record was read with (e.g. {@code _MIN_ROW_ID},
 *     {@link dev.streamhouse.storage.NewerPaimonFeatures#MANIFEST_LIST_FIELDS}); such a record is never
 *     written again, since that would drop them
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
        Integer maxLevel,
        List<String> newerFields) {

    public ManifestFileMeta {
        newerFields = List.copyOf(newerFields);
    }

    /** A record of this store's layout (no fields of a newer Paimon). */
    public ManifestFileMeta(String fileName, long fileSize, long numAddedFiles, long numDeletedFiles,
            SimpleStats partitionStats, long schemaId, Integer minBucket, Integer maxBucket, Integer minLevel,
            Integer maxLevel) {
        this(fileName, fileSize, numAddedFiles, numDeletedFiles, partitionStats, schemaId, minBucket, maxBucket,
                minLevel, maxLevel, List.of());
    }
}
