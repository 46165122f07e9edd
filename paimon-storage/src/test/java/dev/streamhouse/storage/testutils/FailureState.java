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

    /** A counted call's number and fate: {@code timing} null to proceed, else when to fail. */
    record Verdict(int callNumber, FailureRule.Timing timing) {}

    /** Counts a call and decides its fate. */
    synchronized Verdict onCall(FileOperation operation, Path path, Path otherPath) {
        calls++;
        if (log.size() < MAX_LOGGED_CALLS) {
            log.add(new FailingFileIO.Call(calls, operation, path, otherPath));
        }
        if (rule == null) {
            return new Verdict(calls, null);
        }
        FailureRule.Timing timing = rule.decide(calls, operation, path, otherPath);
        if (rule.exhausted()) {
            rule = null;
        }
        if (timing != null) {
            injected++;
        }
        return new Verdict(calls, timing);
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
    }

    /** Arms a rule failing the n-th call from now. */
    synchronized void armAtCall(int n, FailureRule.Timing timing) {
        if (n < 1) {
            throw new IllegalArgumentException("The call to fail is counted from 1, got " + n);
        }
        rule = new FailureRule.AtCall(calls + n, timing);
    }

    synchronized void disarm() {
        rule = null;
    }

    synchronized boolean armed() {
        return rule != null;
    }
}
