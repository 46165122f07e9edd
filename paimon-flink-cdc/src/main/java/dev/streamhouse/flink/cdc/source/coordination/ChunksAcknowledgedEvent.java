package dev.streamhouse.flink.cdc.source.coordination;

import java.util.List;
import org.apache.flink.api.connector.source.SourceEvent;

/** Enumerator to reader: the enumerator recorded these emitted chunks; the reader may forget them. */
public final class ChunksAcknowledgedEvent implements SourceEvent {
    private static final long serialVersionUID = 1L;

    private final List<String> splitIds;

    public ChunksAcknowledgedEvent(List<String> splitIds) {
        this.splitIds = List.copyOf(splitIds);
    }

    public List<String> splitIds() {
        return splitIds;
    }
}
