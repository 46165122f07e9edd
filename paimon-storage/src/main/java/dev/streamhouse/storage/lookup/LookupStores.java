package dev.streamhouse.storage.lookup;

import java.io.Closeable;
import java.nio.file.Path;

/**
 * Opens the {@link KeyValueStore}s of one lookup cache and frees them together. One set of stores per
 * load of the cache: a full reload opens a new set and closes the old one when no lookup uses it.
 */
public interface LookupStores extends Closeable {

    /** A new, empty store named {@code name} (unique within this set). */
    KeyValueStore open(String name);

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

    /** Stores on the heap (for {@code lookup.cache} = MEMORY). */
    static LookupStores onHeap() {
        return new HeapStores();
    }
}
