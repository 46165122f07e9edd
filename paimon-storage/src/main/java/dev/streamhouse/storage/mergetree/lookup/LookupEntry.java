package dev.streamhouse.storage.mergetree.lookup;

import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.mergetree.KeyValue;

/**
 * One record of a data file as a lookup file keeps it: everything needed to rebuild its {@link KeyValue},
 * and where it sits in the data file.
 *
 * @param key the key, decoded (owns its values)
 * @param value the value row as the reader factory gave it (all projected columns), decoded
 * @param rowPosition the record's 0-based position in the data file, in file order (what deletion vectors
 *     mark)
 */
public record LookupEntry(InternalRow key, long sequenceNumber, RowKind valueKind, InternalRow value,
        long rowPosition) {

    /** A new KeyValue of this record, read from a file on {@code level}. */
    public KeyValue toKeyValue(int level) {
        return new KeyValue().replace(key, sequenceNumber, valueKind, value).setLevel(level);
    }
}
