package dev.streamhouse.flink.cdc.source.enumerator;

import dev.streamhouse.flink.cdc.event.CdcTableId;
import dev.streamhouse.flink.cdc.mysql.BinlogPosition;
import dev.streamhouse.flink.cdc.mysql.CapturedTable;
import dev.streamhouse.flink.cdc.mysql.snapshot.ChunkRange;
import dev.streamhouse.flink.cdc.source.split.MySqlChunkSplit;
import dev.streamhouse.flink.cdc.source.split.SnapshotWindow;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The bookkeeping of a chunked snapshot in the enumerator: which tables are still to be split,
 * which chunks wait for a reader, which reader reads which chunk, and which chunks were emitted as
 * of which high watermark. Reports from readers are authoritative and may repeat: a chunk reported
 * emitted again (after a restore) takes the new high watermark; a chunk handed back by a failed
 * reader is read again, even if it was reported emitted. Not thread-safe: the coordinator thread
 * owns it.
 */
final class ChunkAssigner {

    private final List<CapturedTable> tables;
    private final Deque<CdcTableId> tablesToSplit;
    private final Deque<MySqlChunkSplit> unassigned;
    private final Map<String, MySqlChunkSplit> assigned = new LinkedHashMap<>();
    private final Map<String, Integer> owners = new HashMap<>();
    private final Map<String, MySqlChunkSplit> finished = new LinkedHashMap<>();
    /** Per table: chunks not emitted (waiting or assigned). */
    private final Map<CdcTableId, Integer> unfinished = new HashMap<>();
    private boolean binlogAssigned;
    /** Grows whenever a finished chunk stops being finished, so a window computed before is stale. */
    private long generation;

    ChunkAssigner(List<CapturedTable> tables) {
        this.tables = List.copyOf(tables);
        this.tablesToSplit = new ArrayDeque<>();
        for (CapturedTable t : tables) {
            tablesToSplit.add(t.id());
        }
        this.unassigned = new ArrayDeque<>();
    }

    ChunkAssigner(ChunkAssignmentState state) {
        this.tables = List.copyOf(state.tables());
        this.tablesToSplit = new ArrayDeque<>(state.tablesToSplit());
        this.unassigned = new ArrayDeque<>(state.unassigned());
        for (Map.Entry<Integer, List<MySqlChunkSplit>> e : state.assigned().entrySet()) {
            for (MySqlChunkSplit split : e.getValue()) {
                assigned.put(split.splitId(), split);
                owners.put(split.splitId(), e.getKey());
            }
        }
        for (MySqlChunkSplit split : state.finished()) {
            finished.put(split.splitId(), split);
        }
        for (MySqlChunkSplit split : unassigned) {
            unfinished.merge(split.table().id(), 1, Integer::sum);
        }
        for (MySqlChunkSplit split : assigned.values()) {
            unfinished.merge(split.table().id(), 1, Integer::sum);
        }
        this.binlogAssigned = state.binlogAssigned();
    }

    List<CapturedTable> tables() {
        return tables;
    }

    /** The next table to split into chunks; null when every table is split. */
    CapturedTable nextTableToSplit() {
        CdcTableId id = tablesToSplit.peekFirst();
        return id == null ? null : table(id);
    }

    /** The table was split into {@code ranges}, in key order. */
    void tableSplit(CdcTableId table, List<ChunkRange> ranges) {
        if (!tablesToSplit.remove(table)) {
            return;
        }
        CapturedTable captured = table(table);
        for (int i = 0; i < ranges.size(); i++) {
            unassigned.addLast(new MySqlChunkSplit(captured, i, ranges.get(i), null));
        }
        unfinished.merge(table, ranges.size(), Integer::sum);
    }

    /** The next chunk for {@code subtask}, now assigned to it; null when none waits. */
    MySqlChunkSplit assign(int subtask) {
        MySqlChunkSplit split = unassigned.pollFirst();
        if (split != null) {
            assigned.put(split.splitId(), split);
            owners.put(split.splitId(), subtask);
        }
        return split;
    }

    /** Chunks assigned to {@code subtask} and not reported emitted. */
    int inFlight(int subtask) {
        int n = 0;
        for (Integer owner : owners.values()) {
            if (owner == subtask) {
                n++;
            }
        }
        return n;
    }

    /** A (restored) reader holds the chunk and has not emitted it; false for an unknown chunk. */
    boolean held(int subtask, String id) {
        MySqlChunkSplit split = remove(id);
        if (split == null) {
            return false;
        }
        assigned.put(id, split.withHighWatermark(null));
        owners.put(id, subtask);
        unfinished.merge(split.table().id(), 1, Integer::sum);
        return true;
    }

    /** A reader emitted the chunk's rows as of {@code highWatermark}; false for an unknown chunk. */
    boolean emitted(String id, BinlogPosition highWatermark) {
        MySqlChunkSplit split = remove(id);
        if (split == null) {
            return false;
        }
        finished.put(id, split.withHighWatermark(highWatermark));
        return true;
    }

    /** Takes the chunk out of whichever set holds it (and out of the unfinished count). */
    private MySqlChunkSplit remove(String id) {
        MySqlChunkSplit split = finished.remove(id);
        if (split != null) {
            generation++;
            return split;
        }
        split = assigned.remove(id);
        owners.remove(id);
        if (split == null) {
            split = unassigned.stream().filter(s -> s.splitId().equals(id)).findFirst().orElse(null);
            unassigned.remove(split);
        }
        if (split != null) {
            unfinished.merge(split.table().id(), -1, Integer::sum);
        }
        return split;
    }

    /** A failed reader's chunks, assigned after its last checkpoint: they are read again. */
    void handedBack(List<MySqlChunkSplit> splits) {
        for (MySqlChunkSplit split : splits) {
            MySqlChunkSplit known = remove(split.splitId());
            unassigned.addFirst((known == null ? split : known).withHighWatermark(null));
            unfinished.merge(split.table().id(), 1, Integer::sum);
        }
    }

    boolean allFinished() {
        return tablesToSplit.isEmpty() && unassigned.isEmpty() && assigned.isEmpty();
    }

    long generation() {
        return generation;
    }

    boolean binlogAssigned() {
        return binlogAssigned;
    }

    void binlogAssigned(boolean assigned) {
        this.binlogAssigned = assigned;
    }

    int chunksFinished() {
        return finished.size();
    }

    int chunksKnown() {
        return finished.size() + assigned.size() + unassigned.size();
    }

    /** Tables split and with every chunk finished. */
    int tablesDone() {
        int done = 0;
        for (CapturedTable t : tables) {
            if (isDone(t.id())) {
                done++;
            }
        }
        return done;
    }

    boolean isDone(CdcTableId table) {
        return !tablesToSplit.contains(table) && unfinished.getOrDefault(table, 0) == 0;
    }

    /** The finished snapshot for the binlog split; only when {@link #allFinished()}. */
    SnapshotWindow window() {
        List<MySqlChunkSplit> inKeyOrder = new ArrayList<>(finished.values());
        inKeyOrder.sort(java.util.Comparator.comparingInt(MySqlChunkSplit::index));
        Map<CdcTableId, List<SnapshotWindow.FinishedChunk>> chunks = new HashMap<>();
        for (MySqlChunkSplit split : inKeyOrder) {
            chunks.computeIfAbsent(split.table().id(), t -> new ArrayList<>())
                    .add(new SnapshotWindow.FinishedChunk(split.range(), split.highWatermark()));
        }
        return new SnapshotWindow(tables, chunks);
    }

    ChunkAssignmentState snapshot() {
        Map<Integer, List<MySqlChunkSplit>> bySubtask = new TreeMap<>();
        for (Map.Entry<String, MySqlChunkSplit> e : assigned.entrySet()) {
            bySubtask.computeIfAbsent(owners.get(e.getKey()), s -> new ArrayList<>()).add(e.getValue());
        }
        return new ChunkAssignmentState(tables, List.copyOf(tablesToSplit), List.copyOf(unassigned), bySubtask,
                List.copyOf(finished.values()), binlogAssigned);
    }

    private CapturedTable table(CdcTableId id) {
        for (CapturedTable t : tables) {
            if (t.id().equals(id)) {
                return t;
            }
        }
        throw new IllegalStateException("Unknown table " + id);
    }
}
