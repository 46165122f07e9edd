package dev.streamhouse.flink.source.enumerator;

import dev.streamhouse.flink.source.split.PaimonSplit;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * Hands the unassigned splits to whichever reader asks first, in the order they were added. Fits
 * bounded reads, where splits are independent: readers pull one split at a time, so faster readers
 * simply take more.
 */
public final class AnyReaderSplitAssigner implements SplitAssigner {
    private final ArrayDeque<PaimonSplit> unassigned = new ArrayDeque<>();

    @Override
    public Optional<PaimonSplit> next(int subtask) {
        return Optional.ofNullable(unassigned.pollFirst());
    }

    @Override
    public void addSplits(Collection<PaimonSplit> splits) {
        unassigned.addAll(splits);
    }

    @Override
    public void addSplitsBack(Collection<PaimonSplit> splits) {
        List<PaimonSplit> reversed = new ArrayList<>(splits);
        java.util.Collections.reverse(reversed);
        reversed.forEach(unassigned::addFirst);
    }

    @Override
    public List<PaimonSplit> remainingSplits() {
        return new ArrayList<>(unassigned);
    }
}
