package dev.streamhouse.flink.source.event;

import org.apache.flink.api.connector.source.SourceEvent;

/**
 * Sent by a reader of an unbounded read to the enumerator while it takes checkpoint
 * {@code checkpointId}: what the splits in that checkpoint of the reader (assigned, not finished) may
 * still hold. Together with the enumerator's own part of the checkpoint (unassigned splits, next
 * snapshot to plan) this tells which snapshot a consumer restarted from that checkpoint would need
 * first.
 *
 * @param checkpointId the checkpoint the reader's state belongs to
 * @param pending what the reader's unfinished splits may still hold
 */
public record ReaderProgressEvent(long checkpointId, PendingChanges pending) implements SourceEvent {
    private static final long serialVersionUID = 1L;
}
