package dev.streamhouse.storage.io;

import dev.streamhouse.storage.fs.Path;

import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Names new data and changelog files of one (partition, bucket) directory:
 * {@code <prefix><uuid>-<n>.<format>}, with one UUID per factory and one counter shared by data and
 * changelog files (docs/format.md §1.4), so names are never reused.
 */
public final class DataFilePathFactory {
    private final Path bucketDir;
    private final String uuid = UUID.randomUUID().toString();
    private final AtomicInteger counter = new AtomicInteger();
    private final String dataPrefix;
    private final String changelogPrefix;
    private final String extension;

    public DataFilePathFactory(Path bucketDir, String dataPrefix, String changelogPrefix, String formatIdentifier) {
        this.bucketDir = bucketDir;
        this.dataPrefix = dataPrefix;
        this.changelogPrefix = changelogPrefix;
        this.extension = "." + formatIdentifier;
    }

    public Path bucketDir() {
        return bucketDir;
    }

    public Path newDataFile() {
        return new Path(bucketDir, dataPrefix + uuid + "-" + counter.getAndIncrement() + extension);
    }

    public Path newChangelogFile() {
        return new Path(bucketDir, changelogPrefix + uuid + "-" + counter.getAndIncrement() + extension);
    }

    public Path toPath(String fileName) {
        return new Path(bucketDir, fileName);
    }

    /**
     * The format identifier of a data file from its name: the last extension, skipping a known
     * compression extension (e.g. {@code .zst.parquet} → parquet, {@code .json.gz} → json).
     */
    public static String formatOf(String fileName) {
        String[] parts = fileName.split("\\.");
        if (parts.length < 2) {
            throw new IllegalArgumentException("Cannot tell the format of data file '" + fileName + "': it has no extension");
        }
        String last = parts[parts.length - 1].toLowerCase(java.util.Locale.ROOT);
        switch (last) {
            case "zst":
            case "gz":
            case "lz4":
            case "snappy":
            case "lzo":
            case "bz2":
            case "zstd":
            case "deflate":
                if (parts.length < 3) {
                    throw new IllegalArgumentException("Cannot tell the format of data file '" + fileName + "'");
                }
                return parts[parts.length - 2].toLowerCase(java.util.Locale.ROOT);
            default:
                return last;
        }
    }
}
