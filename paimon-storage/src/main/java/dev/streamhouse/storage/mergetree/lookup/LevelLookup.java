package dev.streamhouse.storage.mergetree.lookup;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.mergetree.KeyRowComparator;
import dev.streamhouse.storage.mergetree.KeyValue;
import dev.streamhouse.storage.mergetree.io.KeyValueFileReaderFactory;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Point lookups of keys in the sorted runs above level 0 of one bucket, for compactions that must know the
 * newest stored version of each key they write (the {@code lookup} changelog producer, first-row,
 * deletion vectors): the version on the smallest level that holds the key, since a smaller level holds
 * newer data.
 *
 * <p>Per level, the file that may hold a key is found by binary search of the files' key ranges, and the
 * key is then looked up in that file's local {@link LookupFile}, built on first use through the
 * {@link LookupFileCache}. Keys may be asked in any order. A lookup holds a lease on each lookup file it
 * used until {@link #close()}, so the cache does not evict them meanwhile.
 *
 * <p>Not thread-safe: one compaction uses one instance (the cache may be shared).
 */
public final class LevelLookup implements KeyLookup, AutoCloseable {
    private final LookupFileCache cache;
    private final KeyValueFileReaderFactory readers;
    private final BinaryRow partition;
    private final int bucket;
    private final KeyRowComparator keyComparator;
    /** Per level, ascending: the level's files in key order. */
    private final List<DataFileMeta[]> levels = new ArrayList<>();
    private final Map<String, LookupFileCache.Lease> leases = new HashMap<>();
    private boolean closed;

    /**
     * @param files the files to look keys up in, on levels above 0 (each level one sorted run: files with
     *     disjoint key ranges), typically those a compaction leaves untouched
     * @param readers reads the data files (all value columns the caller needs); it must not apply deletion
     *     vectors
     * @throws IllegalArgumentException if a file is on level 0 or two files of a level overlap
     */
    public LevelLookup(LookupFileCache cache, KeyValueFileReaderFactory readers, BinaryRow partition, int bucket,
            List<DataFileMeta> files) {
        this.cache = cache;
        this.readers = readers;
        this.partition = partition;
        this.bucket = bucket;
        this.keyComparator = new KeyRowComparator(readers.layout().keyType());
        Map<Integer, List<DataFileMeta>> byLevel = new TreeMap<>();
        for (DataFileMeta f : files) {
            if (f.level() <= 0) {
                throw new IllegalArgumentException("Cannot look up keys in level-" + f.level() + " file "
                        + f.fileName() + " of bucket " + bucket + ": only the sorted runs above level 0 keep each"
                        + " key once; merge level-0 files by reading them");
            }
            byLevel.computeIfAbsent(f.level(), l -> new ArrayList<>()).add(f);
        }
        for (Map.Entry<Integer, List<DataFileMeta>> level : byLevel.entrySet()) {
            List<DataFileMeta> run = level.getValue();
            run.sort((a, b) -> keyComparator.compare(a.minKey(), b.minKey()));
            for (int i = 1; i < run.size(); i++) {
                DataFileMeta before = run.get(i - 1);
                DataFileMeta after = run.get(i);
                if (keyComparator.compare(before.maxKey(), after.minKey()) >= 0) {
                    throw new IllegalArgumentException("Cannot look up keys in level " + level.getKey()
                            + " of bucket " + bucket + ": files " + before.fileName() + " and " + after.fileName()
                            + " have overlapping key ranges, so the level is not a sorted run");
                }
            }
            levels.add(run.toArray(new DataFileMeta[0]));
        }
    }

    /**
     * The newest stored version of {@code key} as a new KeyValue (safe to keep), with its level set, or
     * null if no file holds the key. A retraction (-U/-D) is returned as stored.
     */
    @Override
    public KeyValue lookup(InternalRow key) throws IOException {
        LookupResult found = locate(key);
        return found == null ? null : found.keyValue();
    }

    /** Whether a file holds a version of {@code key} (of any kind, retractions included). */
    public boolean contains(InternalRow key) throws IOException {
        for (DataFileMeta[] level : levels) {
            DataFileMeta file = fileFor(level, key);
            if (file != null && lookupFile(file).contains(key)) {
                return true;
            }
        }
        return false;
    }

    /** As {@link #lookup}, with the data file and row position of the version, or null. */
    @Override
    public LookupResult locate(InternalRow key) throws IOException {
        for (DataFileMeta[] level : levels) {
            DataFileMeta file = fileFor(level, key);
            if (file == null) {
                continue;
            }
            LookupEntry entry = lookupFile(file).lookup(key);
            if (entry != null) {
                return new LookupResult(entry.toKeyValue(file.level()), file, entry.rowPosition());
            }
        }
        return null;
    }

    /** The file of a level whose key range holds {@code key}, or null. */
    private DataFileMeta fileFor(DataFileMeta[] level, InternalRow key) {
        int low = 0;
        int high = level.length - 1;
        while (low <= high) {
            int mid = (low + high) >>> 1;
            DataFileMeta file = level[mid];
            if (keyComparator.compare(file.maxKey(), key) < 0) {
                low = mid + 1;
            } else if (keyComparator.compare(file.minKey(), key) > 0) {
                high = mid - 1;
            } else {
                return file;
            }
        }
        return null;
    }

    private LookupFile lookupFile(DataFileMeta file) throws IOException {
        if (closed) {
            throw new IllegalStateException("Cannot look up keys in bucket " + bucket + ": the level lookup is closed");
        }
        LookupFileCache.Lease lease = leases.get(file.fileName());
        if (lease == null) {
            lease = cache.acquire(readers, partition, bucket, file);
            leases.put(file.fileName(), lease);
        }
        return lease.file();
    }

    /** How many levels (sorted runs) this lookup covers. */
    public int levelCount() {
        return levels.size();
    }

    /** Releases the lookup files used (they stay cached). */
    @Override
    public void close() {
        closed = true;
        for (LookupFileCache.Lease lease : leases.values()) {
            lease.close();
        }
        leases.clear();
    }
}
