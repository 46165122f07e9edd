package dev.streamhouse.flink.source.enumerator;

import dev.streamhouse.flink.source.split.PaimonSplit;

import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * Decides which reader gets which of the splits not yet assigned. This is where read order and
 * locality live: a bounded read may hand any split to any reader, while a streaming read must keep
 * each (partition, bucket) on one reader so that its changes stay ordered.
 *
 * <p>Used by one enumerator, from the coordinator thread only; implementations need not be thread-safe.
 */
public interface SplitAssigner {

    /**
     * The next split for reader {@code subtask}, removed from the unassigned ones; empty when no
     * split is left that this reader may take.
     */
    Optional<PaimonSplit> next(int subtask);

    /** Adds splits to the unassigned ones, after those already there: newly planned or restored. */
    void addSplits(Collection<PaimonSplit> splits);

    /**
     * Adds splits a failed reader got back, in the order they were assigned. They were planned before
     * every split still unassigned, so they go first: a (partition, bucket) keeps its order.
     */
    void addSplitsBack(Collection<PaimonSplit> splits);

    /** The unassigned splits, for the enumerator's checkpoint; a copy. */
    List<PaimonSplit> remainingSplits();
}
