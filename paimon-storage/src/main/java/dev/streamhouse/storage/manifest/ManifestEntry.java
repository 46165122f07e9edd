package dev.streamhouse.storage.manifest;

import dev.streamhouse.storage.data.BinaryRow;

/**
 * One record of a data or changelog manifest: a file added to or deleted from a (partition, bucket).
 *
 * @param totalBuckets the partition's bucket count when the file was written; -1 for bucket-unaware
 *     and dynamic-bucket tables
 */
public record ManifestEntry(FileKind kind, BinaryRow partition, int bucket, int totalBuckets, DataFileMeta file) {

    public FileIdentifier identifier() {
        return new FileIdentifier(partition, bucket, file);
    }

    /** The same file with the opposite kind, e.g. the DELETE of a live ADD. */
    public ManifestEntry withKind(FileKind newKind) {
        return new ManifestEntry(newKind, partition, bucket, totalBuckets, file);
    }
}
