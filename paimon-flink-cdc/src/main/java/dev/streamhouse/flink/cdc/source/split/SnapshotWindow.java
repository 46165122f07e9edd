package dev.streamhouse.flink.cdc.source.split;

import dev.streamhouse.flink.cdc.event.CdcTableId;
import dev.streamhouse.flink.cdc.mysql.BinlogPosition;
import dev.streamhouse.flink.cdc.mysql.CapturedTable;
import dev.streamhouse.flink.cdc.mysql.snapshot.ChunkRange;
import dev.streamhouse.flink.cdc.mysql.snapshot.CollationWeights;
import dev.streamhouse.flink.cdc.mysql.snapshot.KeyOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What the binlog split knows of the chunked snapshot before it: the captured tables as the
 * snapshot read them, and each table's chunks with their high watermarks. The binlog is read from
 * the lowest high watermark (every chunk already holds the changes before it); a row change at
 * position p of a key whose chunk has high watermark h is already in that chunk's rows when
 * {@code p < h}, and is skipped. From the highest high watermark on, every change is new.
 * Finding a key's chunk compares keys: tables keyed in a linguistic collation need the server's
 * weight strings for it ({@link CollationWeights}).
 */
public final class SnapshotWindow {

    private final List<CapturedTable> tables;
    private final Map<CdcTableId, List<FinishedChunk>> chunks;
    private final BinlogPosition lowest;
    private final BinlogPosition highest;
    private final Map<CdcTableId, KeyOrder> orders = new HashMap<>();

    /** {@code chunks} of each table must cover its key space, in key order. */
    public SnapshotWindow(List<CapturedTable> tables, Map<CdcTableId, List<FinishedChunk>> chunks) {
        this.tables = List.copyOf(tables);
        Map<CdcTableId, List<FinishedChunk>> sorted = new LinkedHashMap<>();
        BinlogPosition low = null;
        BinlogPosition high = null;
        for (CapturedTable table : tables) {
            List<FinishedChunk> list = new ArrayList<>(chunks.getOrDefault(table.id(), List.of()));
            if (list.isEmpty()) {
                throw new IllegalArgumentException("Table " + table.id() + " has no finished chunks");
            }
            orderOf(table);
            if (list.get(0).range().lower() != null || list.get(list.size() - 1).range().upper() != null) {
                throw new IllegalArgumentException("The chunks of table " + table.id() + " are not in key order");
            }
            sorted.put(table.id(), List.copyOf(list));
            for (FinishedChunk c : list) {
                low = low == null ? c.highWatermark() : BinlogPosition.min(low, c.highWatermark());
                high = high == null ? c.highWatermark() : BinlogPosition.max(high, c.highWatermark());
            }
        }
        if (low == null) {
            throw new IllegalArgumentException("A snapshot window needs at least one table");
        }
        this.chunks = sorted;
        this.lowest = low;
        this.highest = high;
    }

    public List<CapturedTable> tables() {
        return tables;
    }

    public Map<CdcTableId, List<FinishedChunk>> chunks() {
        return chunks;
    }

    /** Where the binlog is read from. */
    public BinlogPosition lowestHighWatermark() {
        return lowest;
    }

    /** From here on no change is in a chunk. */
    public BinlogPosition highestHighWatermark() {
        return highest;
    }

    /**
     * True when the change of {@code row} (its image with the key: the after image of an insert or
     * update, the before image of a delete) of {@code table} at {@code position} is already in the
     * rows of the key's chunk. Tables the snapshot did not read have no such changes.
     */
    public boolean reflects(CdcTableId table, Object[] row, BinlogPosition position, CollationWeights weights) {
        if (!position.isBefore(highest)) {
            return false;
        }
        List<FinishedChunk> list = chunks.get(table);
        if (list == null) {
            return false;
        }
        if (position.isBefore(lowest)) {
            return true;
        }
        KeyOrder order = orders.get(table);
        FinishedChunk chunk = chunkOf(list, order.keyOf(row), order, weights);
        return position.isBefore(chunk.highWatermark());
    }

    /**
     * True when a chunk of {@code table} was read as of a high watermark after {@code position}: a
     * change of the table's definition there may have changed what the chunk's rows hold.
     */
    public boolean readAfter(CdcTableId table, BinlogPosition position) {
        List<FinishedChunk> list = chunks.get(table);
        if (list == null) {
            return false;
        }
        for (FinishedChunk chunk : list) {
            if (position.isBefore(chunk.highWatermark())) {
                return true;
            }
        }
        return false;
    }

    /** The last chunk whose lower bound is at or below the key (the first one is open below). */
    private static FinishedChunk chunkOf(List<FinishedChunk> list, Object[] key, KeyOrder order,
            CollationWeights weights) {
        int low = 0;
        int high = list.size() - 1;
        while (low < high) {
            int mid = (low + high + 1) >>> 1;
            Object[] lower = list.get(mid).range().lower();
            if (lower == null || order.compare(lower, key, weights) <= 0) {
                low = mid;
            } else {
                high = mid - 1;
            }
        }
        return list.get(low);
    }

    private KeyOrder orderOf(CapturedTable table) {
        return orders.computeIfAbsent(table.id(), id -> KeyOrder.of(table));
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SnapshotWindow other && tables.equals(other.tables) && chunks.equals(other.chunks);
    }

    @Override
    public int hashCode() {
        return Objects.hash(tables, chunks);
    }

    @Override
    public String toString() {
        int count = chunks.values().stream().mapToInt(List::size).sum();
        return "SnapshotWindow{" + tables.size() + " tables, " + count + " chunks, high watermarks " + lowest + " to "
                + highest + "}";
    }

    /** A chunk whose rows were emitted as of {@code highWatermark}. */
    public record FinishedChunk(ChunkRange range, BinlogPosition highWatermark) {}
}
