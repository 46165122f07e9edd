package dev.streamhouse.flink.cdc.source.split;

import dev.streamhouse.flink.cdc.debezium.OffsetJson;
import dev.streamhouse.flink.cdc.mysql.BinlogPosition;
import java.util.Map;

/**
 * The mutable state of the binlog split being read. It moves only with records read from the
 * binlog: snapshot records carry offsets Debezium cannot resume from, so until the first binlog
 * record the checkpointed split is the one the reader started with (a restore repeats the start).
 * After that it is the offset of the last record emitted, so a restore resumes right after it, with
 * the schema history the connector has stored so far. The snapshot window is dropped once a record
 * at or past its highest high watermark was read.
 */
public final class MySqlBinlogSplitState implements MySqlSplitState {

    private final MySqlBinlogSplit split;
    private Map<String, ?> offset;
    private SnapshotWindow window;

    public MySqlBinlogSplitState(MySqlBinlogSplit split) {
        this.split = split;
        this.window = split.window();
    }

    /** A record was emitted; {@code inSnapshot} when its offset is a snapshot's. */
    public void advance(Map<String, ?> recordOffset, boolean inSnapshot) {
        advance(recordOffset, inSnapshot, null);
    }

    /** A record of the event at {@code position} (null when it has none) was emitted or skipped. */
    public void advance(Map<String, ?> recordOffset, boolean inSnapshot, BinlogPosition position) {
        if (!inSnapshot && recordOffset != null) {
            this.offset = recordOffset;
        }
        if (window != null && position != null && !position.isBefore(window.highestHighWatermark())) {
            window = null;
        }
    }

    /** True while the split still snapshots the tables (no binlog record emitted yet). */
    public boolean snapshotPending() {
        return split.snapshotPending() && offset == null;
    }

    public long skipBeforeMillis() {
        return split.skipBeforeMillis();
    }

    /** The chunked snapshot whose changes are still to be skipped; null once read past. */
    public SnapshotWindow window() {
        return window;
    }

    /** The split to checkpoint. */
    @Override
    public MySqlBinlogSplit toSplit() {
        if (offset == null && window == split.window()) {
            return split;
        }
        String offsetJson = offset == null ? split.offsetJson() : OffsetJson.toJson(offset);
        return new MySqlBinlogSplit(offsetJson, split.historyRecords().snapshot(), offset == null && split.snapshotPending(),
                split.skipBeforeMillis(), window);
    }
}
