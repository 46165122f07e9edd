package dev.streamhouse.storage.lookup;

import dev.streamhouse.storage.data.InternalRow;

import java.util.List;

/**
 * How a lookup cache keeps the rows of its table, indexed by the join key. Rows are those of the
 * cache's read type ({@link LookupTable}); every row given here already passed the cache's filter
 * unless said otherwise. Thread-safe for lookups concurrent with one writer.
 */
interface CachedRows {

    /** Adds a row of the initial load (each key of a primary-key table at most once). */
    void load(InternalRow row);

    /**
     * Applies one change read from a new snapshot, with its row kind; {@code matches} tells whether the
     * row passes the cache's filter (a row that no longer matches removes its key).
     */
    void apply(InternalRow change, boolean matches);

    /** The encoded rows whose join key has the encoding {@code joinKey}. */
    List<byte[]> lookup(byte[] joinKey);
}
