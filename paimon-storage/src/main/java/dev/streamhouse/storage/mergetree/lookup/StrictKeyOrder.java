package dev.streamhouse.storage.mergetree.lookup;

import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.mergetree.KeyRowComparator;
import dev.streamhouse.storage.types.RowType;

/**
 * Checks that the keys written to a lookup file ascend strictly, as the files of a sorted run above
 * level 0 hold them; so each key is stored once and a sorted file can be searched. Not thread-safe.
 */
final class StrictKeyOrder {
    private final KeyRowComparator comparator;
    private InternalRow previous;

    StrictKeyOrder(RowType keyType) {
        this.comparator = new KeyRowComparator(keyType);
    }

    /**
     * @param key the next key; kept until the next call, so it must own its values
     * @throws IllegalArgumentException if {@code key} is not greater than the previous key
     */
    void checkNext(InternalRow key, long rowPosition) {
        if (previous != null && comparator.compare(previous, key) >= 0) {
            throw new IllegalArgumentException("Cannot store key " + key + " (row " + rowPosition
                    + ") in a lookup file: it does not follow key " + previous + " in ascending order; lookup"
                    + " files are built from files above level 0, whose keys are unique and sorted");
        }
        previous = key;
    }
}
