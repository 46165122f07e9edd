package dev.streamhouse.flink.cdc.source.split;

import dev.streamhouse.flink.cdc.debezium.OffsetJson;
import java.util.Map;

/**
 * The mutable state of the split being read. It moves only with records read from the binlog:
 * snapshot records carry offsets Debezium cannot resume from, so until the first binlog record the
 * checkpointed split is the one the reader started with (a restore repeats the start). After that
 * it is the offset of the last record emitted, so a restore resumes right after it, with the schema
 * history the connector has stored so far.
 */
public final class MySqlBinlogSplitState {

    private final MySqlBinlogSplit split;
    private Map<String, ?> offset;

    public MySqlBinlogSplitState(MySqlBinlogSplit split) {
        this.split = split;
    }

    /** A record was emitted; {@code inSnapshot} when its offset is a snapshot's. */
    public void advance(Map<String, ?> recordOffset, boolean inSnapshot) {
        if (!inSnapshot && recordOffset != null) {
            this.offset = recordOffset;
        }
    }

    /** True while the split still snapshots the tables (no binlog record emitted yet). */
    public boolean snapshotPending() {
        return split.snapshotPending() && offset == null;
    }

    public long skipBeforeMillis() {
        return split.skipBeforeMillis();
    }

    /** The split to checkpoint. */
    public MySqlBinlogSplit toSplit() {
        if (offset == null) {
            return split;
        }
        MySqlBinlogSplit next = new MySqlBinlogSplit(OffsetJson.toJson(offset), split.historyRecords().snapshot(),
                false, split.skipBeforeMillis());
        return next;
    }
}
