package dev.streamhouse.storage.mergetree.lookup;

import dev.streamhouse.storage.mergetree.KeyValue;
import dev.streamhouse.storage.types.RowType;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Writes the records of one data file into a new local {@link LookupFile}, in the data file's order:
 * keys strictly ascending, each with its row position. Either {@link #finish()} it, or, after any
 * failure or to give up, {@link #abort()} it, which deletes what was written. Not thread-safe.
 */
public interface LookupFileWriter {

    /**
     * Adds the next record. The record (and its rows) is copied: readers may reuse it afterwards.
     *
     * @param rowPosition the record's 0-based position in the data file
     * @throws IllegalArgumentException if the key does not follow the previous one in ascending order
     */
    void add(KeyValue record, long rowPosition) throws IOException;

    /** Completes the file and opens it for lookups. The caller owns the returned file and its path. */
    LookupFile finish() throws IOException;

    /** Closes and deletes the partial file; never throws, and does nothing after {@link #finish()}. */
    void abort();

    /**
     * A writer of a new file at {@code path} (which must not exist) in the layout of {@code settings}.
     *
     * @param keyType the type of the records' keys
     * @param valueType the type of the records' value rows, as the reader factory gives them
     * @param expectedRecords how many records will be added (sizes the Bloom filter and hash table; more
     *     are accepted, at some cost)
     */
    static LookupFileWriter create(Path path, RowType keyType, RowType valueType, LookupFileSettings settings,
            long expectedRecords) throws IOException {
        switch (settings.fileType()) {
            case SORT:
                return new SortLookupFileWriter(path, keyType, valueType, settings, expectedRecords);
            case HASH:
                return new HashLookupFileWriter(path, keyType, valueType, settings, expectedRecords);
            default:
                throw new IllegalArgumentException("Cannot write lookup files of type " + settings.fileType());
        }
    }
}
