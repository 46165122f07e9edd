package dev.streamhouse.flink.source.enumerator;

import dev.streamhouse.flink.source.event.PendingChanges;

import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;

/**
 * Works out, per checkpoint, the progress to record for a named consumer: the smallest snapshot whose
 * changes a job restored from that checkpoint may not have emitted yet. That is the minimum over
 * <ul>
 *   <li>the splits the enumerator had not assigned yet when it took the checkpoint,</li>
 *   <li>the splits each reader held (assigned, not finished) in the same checkpoint, reported with a
 *       {@link dev.streamhouse.flink.source.event.ReaderProgressEvent},</li>
 *   <li>and the next snapshot the enumerator's scan plans (all before it are planned).</li>
 * </ul>
 * A checkpoint only yields progress once it completed, every reader reported for it, the scan had
 * decided its starting point, and no full split was pending (see {@link PendingChanges}). Splits
 * assigned between the enumerator's and a reader's part of a checkpoint are counted by the first:
 * they were unassigned when it took its part.
 *
 * <p>Used from the coordinator thread only; not thread-safe.
 */
final class ConsumerProgressTracker {
    private final TreeMap<Long, EnumeratorPart> enumeratorParts = new TreeMap<>();
    private final TreeMap<Long, Map<Integer, PendingChanges>> readerParts = new TreeMap<>();

    private long lastCompleted = Long.MIN_VALUE;

    private record EnumeratorPart(PendingChanges unassigned, Long nextSnapshotId) {}

    /**
     * Records the enumerator's part of checkpoint {@code checkpointId}.
     *
     * @param nextSnapshotId the next snapshot the scan plans; null if no starting point was decided
     */
    void enumeratorCheckpoint(long checkpointId, PendingChanges unassigned, Long nextSnapshotId) {
        enumeratorParts.put(checkpointId, new EnumeratorPart(unassigned, nextSnapshotId));
    }

    /** Records the part of reader {@code subtask} of checkpoint {@code checkpointId}. */
    void readerCheckpoint(long checkpointId, int subtask, PendingChanges pending) {
        if (checkpointId <= lastCompleted) {
            return; // late: that checkpoint was already completed (or subsumed)
        }
        readerParts.computeIfAbsent(checkpointId, k -> new HashMap<>()).put(subtask, pending);
    }

    /**
     * Checkpoint {@code checkpointId} completed: the consumer's next snapshot as of that checkpoint, or
     * empty if it cannot be told (see the class comment). Forgets this and every earlier checkpoint.
     *
     * @param readers the number of readers (parallelism) that report
     */
    OptionalLong checkpointComplete(long checkpointId, int readers) {
        EnumeratorPart enumerator = enumeratorParts.get(checkpointId);
        Map<Integer, PendingChanges> reported = readerParts.getOrDefault(checkpointId, Map.of());
        enumeratorParts.headMap(checkpointId, true).clear();
        readerParts.headMap(checkpointId, true).clear();
        lastCompleted = Math.max(lastCompleted, checkpointId);
        if (enumerator == null || enumerator.nextSnapshotId() == null) {
            return OptionalLong.empty();
        }
        PendingChanges pending = enumerator.unassigned();
        for (int subtask = 0; subtask < readers; subtask++) {
            PendingChanges part = reported.get(subtask);
            if (part == null) {
                return OptionalLong.empty();
            }
            pending = pending.merge(part);
        }
        if (pending.fullSplitPending()) {
            return OptionalLong.empty();
        }
        long next = enumerator.nextSnapshotId();
        if (pending.earliestDeltaSnapshot() != null) {
            next = Math.min(next, pending.earliestDeltaSnapshot());
        }
        return OptionalLong.of(next);
    }

    /** Forgets a checkpoint that was aborted (it never completes). */
    void checkpointAborted(long checkpointId) {
        enumeratorParts.remove(checkpointId);
        readerParts.remove(checkpointId);
    }
}
