package dev.streamhouse.flink.cdc.source.reader;

import dev.streamhouse.flink.cdc.event.CdcEvent;
import dev.streamhouse.flink.cdc.event.CdcRecord;
import dev.streamhouse.flink.cdc.mysql.BinlogPosition;
import dev.streamhouse.flink.cdc.source.split.MySqlChunkSplit;
import java.util.List;
import java.util.Map;

/** What the split reader hands the emitter: a whole chunk, or one record of the binlog. */
sealed interface SourceElement {

    /** Every row of a chunk as of its high watermark, emitted in one step. */
    record ChunkRows(MySqlChunkSplit split, List<CdcRecord> rows, BinlogPosition highWatermark)
            implements SourceElement {}

    /**
     * One Debezium record: its events (none for a heartbeat), its source offset, whether that
     * offset is a snapshot's, and the binlog position of its event (null when it has none).
     */
    record BinlogRecord(List<CdcEvent> events, Map<String, ?> offset, boolean inSnapshot, BinlogPosition position)
            implements SourceElement {

        static boolean isSnapshotOffset(Map<String, ?> offset) {
            if (offset == null) {
                return false;
            }
            // Debezium 3 marks a snapshot's offsets with the snapshot type (INITIAL, ...), older ones with true.
            Object snapshot = offset.get("snapshot");
            return snapshot != null && !"false".equalsIgnoreCase(String.valueOf(snapshot));
        }
    }
}
