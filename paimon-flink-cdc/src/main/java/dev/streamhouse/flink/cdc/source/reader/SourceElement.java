package dev.streamhouse.flink.cdc.source.reader;

import dev.streamhouse.flink.cdc.event.CdcEvent;
import java.util.List;
import java.util.Map;

/**
 * One Debezium record as the split reader hands it to the emitter: its events (none for a
 * heartbeat), its source offset, and whether that offset is a snapshot's.
 */
record SourceElement(List<CdcEvent> events, Map<String, ?> offset, boolean inSnapshot) {

    static boolean isSnapshotOffset(Map<String, ?> offset) {
        if (offset == null) {
            return false;
        }
        Object snapshot = offset.get("snapshot");
        return Boolean.TRUE.equals(snapshot) || "true".equals(String.valueOf(snapshot));
    }
}
