package dev.streamhouse.storage.testutils;

import dev.streamhouse.storage.fs.Path;

import java.util.ArrayList;
import java.util.List;

/**
 * The mutable side of a {@link FailingFileIO}: call counter, call log and the armed rule. Lives in a
 * static registry so that serialized copies of the FileIO (e.g. in Flink tasks of the same JVM) share
 * it. Thread-safe.
 */
final class FailureState {
    /** The call log stops growing here; the counter keeps counting. */
    static final int MAX_LOGGED_CALLS = 100_000;

    private int calls;
    private int injected;
    private FailureRule rule;
    private final List<FailingFileIO.Call> log = new ArrayList<>();
    private final ThreadLocal<int[]> threadCalls = ThreadLocal.withInitial(() -> new int[1]);
    /** Whether the armed rule wants to see writes; read without the lock on every write. */
    private volatile boolean writesWatched;

    /** A counted call's number and fate: {@code timing} null to proceed, else when to fail. */
    record Verdict(int callNumber, FailureRule.Timing timing) {}

    /** Counts a call and decides its fate. */
    synchronized Verdict onCall(FileOperation operation, Path path, Path otherPath) {
        calls++;
        threadCalls.get()[0]++;
        if (log.size() < MAX_LOGGED_CALLS) {
            log.add(new FailingFileIO.Call(calls, operation, path, otherPath));
        }
        if (rule == null) {
            return new Verdict(calls, null);
        }
        FailureRule.Timing timing = rule.decide(calls, operation, path, otherPath);
        if (rule.exhausted()) {
            disarm();
        }
        if (timing != null) {
            injected++;
        }
        return new Verdict(calls, timing);
    }

    /**
     * Decides the fate of a write (not counted: the verdict carries the number of the last counted
     * call); cheap while no rule watches writes.
     */
    Verdict onWrite(Path path) {
        if (!writesWatched) {
            return null;
        }
        synchronized (this) {
            if (rule == null || !rule.mayFailWrites()) {
                return null;
            }
            FailureRule.Timing timing = rule.decide(calls, FileOperation.WRITE, path, null);
            if (rule.exhausted()) {
                disarm();
            }
            if (timing == null) {
                return null;
            }
            injected++;
            return new Verdict(calls, timing);
        }
    }

    /** Counted calls the current thread made through this state (never reset). */
    int callsInThisThread() {
        return threadCalls.get()[0];
    }

    synchronized int calls() {
        return calls;
    }

    synchronized void resetCalls() {
        calls = 0;
        log.clear();
    }

    synchronized List<FailingFileIO.Call> log() {
        return List.copyOf(log);
    }

    synchronized int injected() {
        return injected;
    }

    synchronized void arm(FailureRule newRule) {
        rule = newRule;
        writesWatched = newRule.mayFailWrites();
    }

    /** Arms a rule failing the n-th call from now. */
    synchronized void armAtCall(int n, FailureRule.Timing timing) {
        if (n < 1) {
            throw new IllegalArgumentException("The call to fail is counted from 1, got " + n);
        }
        arm(new FailureRule.AtCall(calls + n, timing));
    }

    synchronized void disarm() {
        rule = null;
        writesWatched = false;
    }

    synchronized boolean armed() {
        return rule != null;
    }
}
