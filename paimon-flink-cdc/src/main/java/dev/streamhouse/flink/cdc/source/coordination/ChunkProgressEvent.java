package dev.streamhouse.flink.cdc.source.coordination;

import dev.streamhouse.flink.cdc.mysql.BinlogPosition;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.connector.source.SourceEvent;

/**
 * Reader to enumerator: chunks the reader emitted, each with its high watermark, and (after a
 * restore) chunks it holds and has not emitted. The reader repeats an emitted chunk in its state,
 * and so after a restore, until the enumerator acknowledges it ({@link ChunksAcknowledgedEvent}).
 */
public final class ChunkProgressEvent implements SourceEvent {
    private static final long serialVersionUID = 1L;

    private final Map<String, BinlogPosition> emitted;
    private final List<String> held;

    public ChunkProgressEvent(Map<String, BinlogPosition> emitted, List<String> held) {
        this.emitted = Map.copyOf(emitted);
        this.held = List.copyOf(held);
    }

    public Map<String, BinlogPosition> emitted() {
        return emitted;
    }

    public List<String> held() {
        return held;
    }

    @Override
    public String toString() {
        return "ChunkProgressEvent{emitted=" + emitted + ", held=" + held + "}";
    }
}
