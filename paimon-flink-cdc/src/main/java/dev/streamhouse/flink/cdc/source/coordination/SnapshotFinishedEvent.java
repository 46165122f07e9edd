package dev.streamhouse.flink.cdc.source.coordination;

import org.apache.flink.api.connector.source.SourceEvent;

/** Reader to enumerator: the snapshot phase is over, the split's state now holds a binlog offset. */
public final class SnapshotFinishedEvent implements SourceEvent {
    private static final long serialVersionUID = 1L;
}
