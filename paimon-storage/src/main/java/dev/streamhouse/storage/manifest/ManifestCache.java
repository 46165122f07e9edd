package dev.streamhouse.storage.manifest;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.options.CatalogOptions;
import dev.streamhouse.storage.options.MemorySize;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.stats.SimpleStats;

import java.io.IOException;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The decoded entries of recently read manifest files, shared by the tables of one catalog, so that a
 * plan does not read and decode every manifest of a snapshot again (options {@code cache-enabled},
 * {@code cache.manifest.small-file-threshold}, {@code cache.manifest.small-file-memory}, {@code
 * cache.manifest.max-memory}). Manifest files are never rewritten (every file has a new name), so a
 * cached file's entries stay right until the file is deleted, after which nothing asks for it.
 *
 * <p>Bounded: the least recently used files are dropped once the cached entries' estimated heap
 * ({@link #estimatedHeapBytes}) exceeds the budget, and a file whose entries alone exceed it is not
 * kept. Which files are kept: those of at most the small-file threshold in the small-file budget, or,
 * when {@code cache.manifest.max-memory} is set, files of any size within that budget. Of the larger
 * files only a {@link ManifestBlockIndex} is kept (a few hundred bytes per block), in the same budget,
 * so that a plan of a few partitions decodes only their blocks. Thread-safe; the lists handed out are
 * unmodifiable.
 */
public final class ManifestCache {
    /** Caches nothing: every read decodes the file. */
    public static final ManifestCache NONE = new ManifestCache(0, 0);

    /** Reads a manifest file's entries when the cache does not hold them. */
    @FunctionalInterface
    public interface Loader {
        List<ManifestEntry> load() throws IOException;
    }

    private final long maxFileBytes;
    private final long budgetBytes;
    private final LinkedHashMap<String, Cached> files = new LinkedHashMap<>(64, 0.75f, true);
    private long usedBytes;
    private long hits;
    private long misses;

    /**
     * @param maxFileBytes files larger than this (on disk) are not cached
     * @param budgetBytes most estimated heap of the cached entries
     */
    public ManifestCache(long maxFileBytes, long budgetBytes) {
        this.maxFileBytes = maxFileBytes;
        this.budgetBytes = budgetBytes;
    }

    /** The cache a catalog with these options shares among its tables. */
    public static ManifestCache fromCatalogOptions(Options options) {
        if (!options.get(CatalogOptions.CACHE_ENABLED)) {
            return NONE;
        }
        MemorySize max = options.get(CatalogOptions.CACHE_MANIFEST_MAX_MEMORY);
        if (max != null) {
            return new ManifestCache(Long.MAX_VALUE, max.bytes());
        }
        return new ManifestCache(options.get(CatalogOptions.CACHE_MANIFEST_SMALL_FILE_THRESHOLD).bytes(),
                options.get(CatalogOptions.CACHE_MANIFEST_SMALL_FILE_MEMORY).bytes());
    }

    /**
     * The entries of the manifest file at {@code path}: cached ones, or {@code loader}'s (kept when the
     * file is small enough).
     *
     * @param fileBytes the file's size on disk, or null when unknown (then the file is not cached)
     */
    public List<ManifestEntry> entries(String path, Long fileBytes, Loader loader) throws IOException {
        boolean cacheable = keeps(fileBytes);
        if (cacheable) {
            synchronized (this) {
                Cached cached = files.get(path);
                if (cached != null && cached.entries != null) {
                    hits++;
                    return cached.entries;
                }
                misses++;
            }
        }
        List<ManifestEntry> entries = Collections.unmodifiableList(loader.load());
        if (cacheable) {
            keep(path, entries);
        }
        return entries;
    }

    /** Whether a manifest file of this size (null: unknown) is one this cache keeps. */
    public boolean keeps(Long fileBytes) {
        return budgetBytes > 0 && fileBytes != null && fileBytes <= maxFileBytes;
    }

    private void keep(String path, List<ManifestEntry> entries) {
        long bytes = 0;
        for (ManifestEntry e : entries) {
            bytes += estimatedHeapBytes(e);
        }
        put(path, new Cached(entries, null, bytes));
    }

    /**
     * The block index kept for the manifest file at {@code path} (one too large to keep whole), or null.
     */
    public synchronized ManifestBlockIndex blockIndex(String path) {
        Cached cached = files.get(path);
        return cached == null ? null : cached.index;
    }

    /** Whether this cache keeps block indexes of the files it does not keep whole. */
    public boolean keepsBlockIndexes() {
        return budgetBytes > 0;
    }

    /** Keeps the block index of a manifest file this cache does not keep whole, within the same budget. */
    public void keepBlockIndex(String path, ManifestBlockIndex index) {
        if (keepsBlockIndexes()) {
            put(path, new Cached(null, index, index.estimatedHeapBytes()));
        }
    }

    private synchronized void put(String path, Cached value) {
        if (value.bytes > budgetBytes || files.containsKey(path)) {
            return;
        }
        files.put(path, value);
        usedBytes += value.bytes;
        var eldest = files.entrySet().iterator();
        while (usedBytes > budgetBytes && eldest.hasNext()) {
            Map.Entry<String, Cached> dropped = eldest.next();
            usedBytes -= dropped.getValue().bytes;
            eldest.remove();
        }
    }

    /** Estimated heap of the cached entries, at most the budget. */
    public synchronized long usedBytes() {
        return usedBytes;
    }

    public synchronized int cachedFiles() {
        return files.size();
    }

    /** Reads answered from the cache, and reads of cacheable files that had to decode them. */
    public synchronized long[] hitsAndMisses() {
        return new long[] {hits, misses};
    }

    /**
     * About how much heap one decoded entry holds: its objects' headers and fixed fields, the file name,
     * the partition, key and statistics rows and the other variable-length parts. An estimate (object
     * layouts vary by JVM), on the high side for compressed references.
     */
    static long estimatedHeapBytes(ManifestEntry e) {
        DataFileMeta f = e.file();
        long bytes = 480;
        bytes += stringBytes(f.fileName()) + stringBytes(f.externalPath());
        bytes += rowBytes(e.partition()) + rowBytes(f.minKey()) + rowBytes(f.maxKey());
        bytes += statsBytes(f.keyStats()) + statsBytes(f.valueStats());
        bytes += listBytes(f.extraFiles()) + listBytes(f.valueStatsCols()) + listBytes(f.writeCols());
        bytes += f.embeddedIndex() == null ? 0 : 16 + f.embeddedIndex().length;
        return bytes;
    }

    private static long stringBytes(String s) {
        return s == null ? 0 : 40 + 2L * s.length();
    }

    private static long rowBytes(BinaryRow row) {
        return row == null ? 0 : 48 + row.sizeInBytes();
    }

    private static long statsBytes(SimpleStats stats) {
        if (stats == null) {
            return 0;
        }
        Long[] nullCounts = stats.nullCounts();
        return 32 + rowBytes(stats.minValues()) + rowBytes(stats.maxValues())
                + (nullCounts == null ? 0 : 16 + 24L * nullCounts.length);
    }

    private static long listBytes(List<String> values) {
        if (values == null) {
            return 0;
        }
        long bytes = 32 + 8L * values.size();
        for (String v : values) {
            bytes += stringBytes(v);
        }
        return bytes;
    }

    /** A file's entries, or (for a file too large to keep whole) its block index. */
    private record Cached(List<ManifestEntry> entries, ManifestBlockIndex index, long bytes) {}
}
