package dev.streamhouse.storage.lookup;

import java.io.Closeable;
import java.util.function.BiConsumer;

/**
 * A map from byte keys to byte values that a lookup cache keeps its rows in: on local disk
 * ({@link LookupStores#onDisk}) or on the heap ({@link LookupStores#onHeap}). Keys of an ordered store
 * compare as unsigned bytes, so all keys with one prefix can be visited together; a point store
 * answers only {@link #get}. Thread-safe: lookups may run while another thread writes.
 */
public interface KeyValueStore extends Closeable {

    /** The value of {@code key}, or null. */
    byte[] get(byte[] key);

    void put(byte[] key, byte[] value);

    void delete(byte[] key);

    /**
     * Visits every entry whose key starts with {@code prefix}, in key order.
     *
     * @throws UnsupportedOperationException for a point store
     */
    void scanPrefix(byte[] prefix, BiConsumer<byte[], byte[]> entry);

    /** Closes the store and frees what it holds (memory, local files). */
    @Override
    void close();
}
