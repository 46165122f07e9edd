package dev.streamhouse.flink.cdc.mysql.snapshot;

import java.io.Serializable;
import java.util.Arrays;

/**
 * The primary-key range of a chunk: from {@code lower} (inclusive) to {@code upper} (exclusive); a
 * null bound is open. Bounds are key values in key order. A table's chunks cover its whole key
 * space without overlap: the first is open below, the last open above, and each upper bound is the
 * next chunk's lower bound.
 */
public record ChunkRange(Object[] lower, Object[] upper) implements Serializable {

    /** The one range of a table read as a single chunk. */
    public static ChunkRange all() {
        return new ChunkRange(null, null);
    }

    public boolean contains(Object[] key, KeyOrder order) {
        return contains(key, order, null);
    }

    /** With the server's weight strings for keys in linguistic collations ({@link KeyOrder#needsWeights()}). */
    public boolean contains(Object[] key, KeyOrder order, CollationWeights weights) {
        return (lower == null || order.compare(key, lower, weights) >= 0)
                && (upper == null || order.compare(key, upper, weights) < 0);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ChunkRange other && Arrays.deepEquals(lower, other.lower)
                && Arrays.deepEquals(upper, other.upper);
    }

    @Override
    public int hashCode() {
        return Arrays.deepHashCode(lower) * 31 + Arrays.deepHashCode(upper);
    }

    @Override
    public String toString() {
        return "[" + (lower == null ? "-inf" : Arrays.deepToString(lower)) + ", "
                + (upper == null ? "+inf" : Arrays.deepToString(upper)) + ")";
    }
}
