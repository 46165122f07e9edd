package dev.streamhouse.storage.operation;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.manifest.ManifestEntry;
import dev.streamhouse.storage.manifest.PartitionBucket;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Totals over a group of live data files: record count (rows in the files, before merging keys),
 * bytes, file count and the newest file creation time.
 */
public final class FileTotals {
    private long recordCount;
    private long fileSizeInBytes;
    private long fileCount;
    private Long lastCreationMillis;

    /** Totals per partition, in the order partitions first occur. */
    public static Map<BinaryRow, FileTotals> byPartition(List<ManifestEntry> liveEntries) {
        Map<BinaryRow, FileTotals> out = new LinkedHashMap<>();
        for (ManifestEntry e : liveEntries) {
            out.computeIfAbsent(e.partition(), p -> new FileTotals()).add(e.file());
        }
        return out;
    }

    /** Totals per (partition, bucket), in the order they first occur. */
    public static Map<PartitionBucket, FileTotals> byBucket(List<ManifestEntry> liveEntries) {
        Map<PartitionBucket, FileTotals> out = new LinkedHashMap<>();
        for (ManifestEntry e : liveEntries) {
            out.computeIfAbsent(new PartitionBucket(e.partition(), e.bucket()), p -> new FileTotals()).add(e.file());
        }
        return out;
    }

    void add(DataFileMeta file) {
        recordCount += file.rowCount();
        fileSizeInBytes += file.fileSize();
        fileCount++;
        Long created = file.creationTimeMillis();
        if (created != null && (lastCreationMillis == null || created > lastCreationMillis)) {
            lastCreationMillis = created;
        }
    }

    public long recordCount() {
        return recordCount;
    }

    public long fileSizeInBytes() {
        return fileSizeInBytes;
    }

    public long fileCount() {
        return fileCount;
    }

    /** The newest file creation time (wall clock stored as UTC millis), or null if no file records one. */
    public Long lastCreationMillis() {
        return lastCreationMillis;
    }
}
