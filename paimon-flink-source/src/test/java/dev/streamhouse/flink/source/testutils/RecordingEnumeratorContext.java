package dev.streamhouse.flink.source.testutils;

import dev.streamhouse.flink.source.split.PaimonSplit;
import org.apache.flink.api.connector.source.ReaderInfo;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.connector.source.SplitsAssignment;
import org.apache.flink.metrics.groups.SplitEnumeratorMetricGroup;

import java.util.ArrayDeque;
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
 * Nothing runs by itself: the periodic {@code callAsync} (the enumerator's timer) runs when the test
 * fires it ({@link #fireTimer()}), and one-shot {@code callAsync}s queue until the test runs them
 * ({@link #runQueuedCalls()}), each as callable then handler, as Flink's worker and coordinator
 * threads would.
 */
public final class RecordingEnumeratorContext implements SplitEnumeratorContext<PaimonSplit> {
    private final int parallelism;
    private final Map<Integer, ReaderInfo> readers = new HashMap<>();
    private final Map<Integer, List<PaimonSplit>> assigned = new HashMap<>();
    private final Set<Integer> noMoreSplits = new HashSet<>();
    private Runnable periodicCall;
    private long periodMillis;
    private final ArrayDeque<Runnable> queuedCalls = new ArrayDeque<>();
    private int timerFirings;
    private int queuedCallsRun;

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
        queuedCalls.add(() -> call(callable, handler));
    }

    /** Runs {@code callable}, then {@code handler} with its result or failure; the handler's exceptions propagate. */
    private static <T> void call(Callable<T> callable, BiConsumer<T, Throwable> handler) {
        T result;
        try {
            result = callable.call();
        } catch (Throwable t) {
            handler.accept(null, t);
            return;
        }
        handler.accept(result, null);
    }

    @Override
    public <T> void callAsync(Callable<T> callable, BiConsumer<T, Throwable> handler, long initialDelay,
            long period) {
        if (periodicCall != null) {
            throw new IllegalStateException("a second periodic call was scheduled");
        }
        periodicCall = () -> call(callable, handler);
        periodMillis = period;
    }

    /**
     * The timer fires once and the work it starts runs to the end: the periodic call, then every
     * one-shot call queued ({@link #fireTimer()}, then {@link #runQueuedCalls()}). Exceptions of the
     * handlers propagate (in Flink they fail the job).
     */
    public void runPeriodicCall() {
        fireTimer();
        runQueuedCalls();
    }

    /** Runs the periodic call once, callable then handler, and nothing else. */
    public void fireTimer() {
        if (periodicCall == null) {
            throw new IllegalStateException("no periodic call was scheduled");
        }
        timerFirings++;
        periodicCall.run();
    }

    /**
     * Runs the queued one-shot calls, oldest first, including those queued meanwhile, until none is
     * left; returns how many ran.
     */
    public int runQueuedCalls() {
        int ran = 0;
        while (!queuedCalls.isEmpty()) {
            if (ran++ > 100_000) {
                throw new IllegalStateException("the enumerator keeps queueing calls");
            }
            queuedCallsRun++;
            queuedCalls.poll().run();
        }
        return ran;
    }

    /** How many one-shot calls wait to run. */
    public int queuedCalls() {
        return queuedCalls.size();
    }

    /** How many one-shot calls ran so far. */
    public int queuedCallsRun() {
        return queuedCallsRun;
    }

    /** How many times the timer fired so far. */
    public int timerFirings() {
        return timerFirings;
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
