package dev.streamhouse.flink.cdc.mysql.snapshot;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Brings a chunk's rows, read in a snapshot at the low watermark, forward to the high watermark:
 * the row changes of the binlog between the two are applied in order, each to the keys of the
 * chunk's range only (an update moving a key out of the range removes the row, one moving a key
 * in adds it). Applying a change the snapshot already saw is harmless, because each change sets a
 * key to its after image: the last change of a key in the window decides its row. Rows are matched
 * by their exact key values (a change's before image holds the key as stored, as the snapshot read
 * it); the range needs the key order only for the changed keys.
 */
final class ChunkBackfill {

    private ChunkBackfill() {}

    /** The chunk's rows as of the high watermark: the snapshot's in their order, then new keys. */
    static List<Object[]> apply(List<Object[]> rows, List<RowChange> changes, ChunkRange range, KeyOrder order,
            CollationWeights weights) {
        Map<Key, Object[]> byKey = new LinkedHashMap<>();
        for (Object[] row : rows) {
            byKey.put(new Key(order.keyOf(row)), row);
        }
        for (RowChange change : changes) {
            if (change.before() != null) {
                Object[] key = order.keyOf(change.before());
                if (range.contains(key, order, weights)) {
                    byKey.remove(new Key(key));
                }
            }
            if (change.after() != null) {
                Object[] key = order.keyOf(change.after());
                if (range.contains(key, order, weights)) {
                    byKey.put(new Key(key), change.after());
                }
            }
        }
        return new ArrayList<>(byKey.values());
    }

    /** Key values compared by content (bytes by their bytes, decimals by value). */
    private static final class Key {
        private final Object[] values;
        private final int hash;

        Key(Object[] values) {
            this.values = values;
            int h = 1;
            for (Object v : values) {
                h = 31 * h + (v instanceof byte[] b ? Arrays.hashCode(b)
                        : v instanceof BigDecimal d ? d.stripTrailingZeros().hashCode() : java.util.Objects.hashCode(v));
            }
            this.hash = h;
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof Key other) || other.values.length != values.length) {
                return false;
            }
            for (int i = 0; i < values.length; i++) {
                Object a = values[i];
                Object b = other.values[i];
                boolean same = a instanceof byte[] x && b instanceof byte[] y ? Arrays.equals(x, y)
                        : a instanceof BigDecimal x && b instanceof BigDecimal y ? x.compareTo(y) == 0
                        : java.util.Objects.equals(a, b);
                if (!same) {
                    return false;
                }
            }
            return true;
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }
}
