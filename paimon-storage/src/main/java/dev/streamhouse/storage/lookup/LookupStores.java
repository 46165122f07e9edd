package dev.streamhouse.storage.lookup;

import java.io.Closeable;
import java.nio.file.Path;

/**
 * Opens the {@link KeyValueStore}s of one lookup cache and frees them together. One set of stores per
 * load of the cache: a full reload opens a new set and closes the old one when no lookup uses it.
 */
public interface LookupStores extends Closeable {

    /**
     * A new, empty store named {@code name} (unique within this set).
     *
     * @param ordered whether the store must visit keys by prefix ({@link KeyValueStore#scanPrefix})
     * @param expectedEntries about how many entries the store will hold (a sizing hint)
     */
    KeyValueStore open(String name, boolean ordered, long expectedEntries);

    /**
     * The load of the table into the stores opened so far is complete; lookups and incremental changes
     * follow. A store on disk is written in bulk until then (no compaction) and here compacted into
     * one sorted run, so a lookup reads one file instead of every file the load flushed.
     */
    void finishLoad();

    /** Bytes of local disk the stores use now (0 on the heap). */
    long diskBytes();

    /** Closes every store opened and deletes their files. */
    @Override
    void close();

    /**
     * Stores in RocksDB under {@code directory} (created, and deleted on close), sharing one block
     * cache and write buffers of at most {@code memoryBytes}.
     */
    static LookupStores onDisk(Path directory, long memoryBytes) {
        return new RocksDbStores(directory, memoryBytes);
    }

    /**
     * Stores on the heap holding at most about {@code budgetBytes} (keys, values and per-entry
     * overhead); a write beyond it fails with {@link HeapBudgetExceededException}.
     */
    static LookupStores onHeap(long budgetBytes) {
        return new HeapStores(budgetBytes);
    }
}
