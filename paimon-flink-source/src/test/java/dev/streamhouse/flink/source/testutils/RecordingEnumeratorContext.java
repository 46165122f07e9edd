package dev.streamhouse.flink.source.testutils;

import dev.streamhouse.flink.source.split.PaimonSplit;
import org.apache.flink.api.connector.source.ReaderInfo;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.connector.source.SplitsAssignment;
import org.apache.flink.metrics.groups.SplitEnumeratorMetricGroup;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.BiConsumer;

/**
 * An enumerator context that records assignments and no-more-splits signals; readers register by hand.
 * A periodic {@code callAsync} is kept and run by the test ({@link #runPeriodicCall()}).
 */
public final class RecordingEnumeratorContext implements SplitEnumeratorContext<PaimonSplit> {
    private final int parallelism;
    private final Map<Integer, ReaderInfo> readers = new HashMap<>();
    private final Map<Integer, List<PaimonSplit>> assigned = new HashMap<>();
    private final Set<Integer> noMoreSplits = new HashSet<>();
    private Runnable periodicCall;
    private long periodMillis;

    public RecordingEnumeratorContext(int parallelism) {
        this.parallelism = parallelism;
    }

    public void registerReader(int subtask) {
        readers.put(subtask, new ReaderInfo(subtask, "localhost"));
    }

    public void unregisterReader(int subtask) {
        readers.remove(subtask);
    }

    public List<PaimonSplit> assignedTo(int subtask) {
        return assigned.getOrDefault(subtask, List.of());
    }

    public boolean toldNoMoreSplits(int subtask) {
        return noMoreSplits.contains(subtask);
    }

    @Override
    public SplitEnumeratorMetricGroup metricGroup() {
        throw new UnsupportedOperationException();
    }

    @Override
    public void sendEventToSourceReader(int subtaskId, SourceEvent event) {
        throw new UnsupportedOperationException();
    }

    @Override
    public int currentParallelism() {
        return parallelism;
    }

    @Override
    public Map<Integer, ReaderInfo> registeredReaders() {
        return readers;
    }

    @Override
    public void assignSplits(SplitsAssignment<PaimonSplit> newSplitAssignments) {
        newSplitAssignments.assignment().forEach((subtask, splits) -> {
            if (!readers.containsKey(subtask)) {
                throw new IllegalStateException("assigned to unregistered reader " + subtask);
            }
            assigned.computeIfAbsent(subtask, k -> new ArrayList<>()).addAll(splits);
        });
    }

    @Override
    public void signalNoMoreSplits(int subtask) {
        noMoreSplits.add(subtask);
    }

    @Override
    public <T> void callAsync(Callable<T> callable, BiConsumer<T, Throwable> handler) {
        throw new UnsupportedOperationException();
    }

    @Override
    public <T> void callAsync(Callable<T> callable, BiConsumer<T, Throwable> handler, long initialDelay,
            long period) {
        if (periodicCall != null) {
            throw new IllegalStateException("a second periodic call was scheduled");
        }
        periodicCall = () -> {
            T result;
            try {
                result = callable.call();
            } catch (Throwable t) {
                handler.accept(null, t);
                return;
            }
            handler.accept(result, null);
        };
        periodMillis = period;
    }

    /**
     * Runs the periodic call once, callable then handler, as Flink's worker and coordinator threads
     * would; exceptions of the handler propagate (in Flink they fail the job).
     */
    public void runPeriodicCall() {
        if (periodicCall == null) {
            throw new IllegalStateException("no periodic call was scheduled");
        }
        periodicCall.run();
    }

    /** The period of the scheduled periodic call, in milliseconds. */
    public long periodMillis() {
        return periodMillis;
    }

    @Override
    public void runInCoordinatorThread(Runnable runnable) {
        runnable.run();
    }
}
