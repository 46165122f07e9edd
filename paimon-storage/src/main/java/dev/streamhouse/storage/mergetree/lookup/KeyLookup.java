package dev.streamhouse.storage.mergetree.lookup;

import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.mergetree.KeyValue;

import java.io.IOException;

/**
 * Finds the newest stored version of a key in the files of a bucket that a compaction does not touch
 * (the levels above its output level): the version on the smallest level that holds the key.
 */
@FunctionalInterface
public interface KeyLookup {

    /** Finds nothing: a compaction with no files above it. */
    KeyLookup NONE = key -> null;

    /**
     * The newest version of {@code key} with its level set, or null when no file holds the key. The
     * result stays valid until the next call.
     */
    KeyValue lookup(InternalRow key) throws IOException;

    /**
     * As {@link #lookup}, with the data file and row position of the version when the lookup knows
     * them (deletion vectors need them); this default knows neither (file null, position -1).
     */
    default LookupResult locate(InternalRow key) throws IOException {
        KeyValue found = lookup(key);
        return found == null ? null : new LookupResult(found, null, -1);
    }
}
