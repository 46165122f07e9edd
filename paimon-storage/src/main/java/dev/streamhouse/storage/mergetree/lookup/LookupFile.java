package dev.streamhouse.storage.mergetree.lookup;

import dev.streamhouse.storage.data.InternalRow;

import java.io.Closeable;
import java.io.IOException;

/**
 * A local, immutable file holding the records of one data file of a sorted run (unique keys), searchable
 * by key. Only an index and a Bloom filter live in heap; a lookup reads at most a few byte ranges of the
 * file. Built by a {@link LookupFileWriter}; usually obtained from a {@link LookupFileCache}.
 *
 * <p>The byte layout is private to the process that wrote it: the cache deletes its files when closed,
 * so they are never read by another version of this code and carry no format version.
 *
 * <p>Thread-safe: lookups may run concurrently. After {@link #close()} lookups fail.
 */
public interface LookupFile extends Closeable {

    /**
     * The record stored under {@code key}, decoded into new objects (safe to keep), or null if the data
     * file does not hold the key.
     *
     * @param key a row of the key type (any {@link InternalRow} implementation)
     */
    LookupEntry lookup(InternalRow key) throws IOException;

    /** Whether the data file holds {@code key} (a version of any kind, retractions included). */
    default boolean contains(InternalRow key) throws IOException {
        return lookup(key) != null;
    }

    /** How many records the file holds. */
    long recordCount();

    /** The size of the local file. */
    long diskBytes();

    /** An estimate of the heap this file holds (index, Bloom filter), for sizing and metrics. */
    long heapBytes();

    /** Closes the local file; does not delete it (its owner, usually the cache, does). */
    @Override
    void close() throws IOException;
}
