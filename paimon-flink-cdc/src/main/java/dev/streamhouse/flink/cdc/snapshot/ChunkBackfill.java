package dev.streamhouse.flink.cdc.snapshot;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * Brings a chunk's rows, read in a snapshot at the low watermark, forward to the high watermark:
 * the row changes of the binlog between the two are applied in order, each to the keys of the
 * chunk's range only (an update moving a key out of the range removes the row, one moving a key
 * in adds it). Applying a change the snapshot already saw is harmless, because each change sets a
 * key to its after image: the last change of a key in the window decides its row.
 */
final class ChunkBackfill {

    private ChunkBackfill() {}

    /** The chunk's rows as of the high watermark, in key order. */
    static List<Object[]> apply(List<Object[]> rows, List<RowChange> changes, ChunkRange range, KeyOrder order) {
        TreeMap<Object[], Object[]> byKey = new TreeMap<>(order);
        for (Object[] row : rows) {
            byKey.put(order.keyOf(row), row);
        }
        for (RowChange change : changes) {
            if (change.before() != null) {
                Object[] key = order.keyOf(change.before());
                if (range.contains(key, order)) {
                    byKey.remove(key);
                }
            }
            if (change.after() != null) {
                Object[] key = order.keyOf(change.after());
                if (range.contains(key, order)) {
                    byKey.put(key, change.after());
                }
            }
        }
        return new ArrayList<>(byKey.values());
    }
}
