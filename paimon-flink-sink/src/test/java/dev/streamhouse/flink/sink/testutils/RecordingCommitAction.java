package dev.streamhouse.flink.sink.testutils;

import dev.streamhouse.flink.sink.CommitAction;
import dev.streamhouse.storage.commit.CommitMessage;
import dev.streamhouse.storage.table.sink.TableCommit;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * {@link CommitAction#append()} that records, per commit user, the exceptions its commits threw
 * (then rethrows them, so the job fails over as usual). Static, because the MiniCluster runs in the
 * test's JVM: {@link #reset} before each test.
 */
public final class RecordingCommitAction implements CommitAction {
    private static final long serialVersionUID = 1L;

    public static final Map<String, List<RuntimeException>> FAILURES = new ConcurrentHashMap<>();

    public static void reset() {
        FAILURES.clear();
    }

    @Override
    public void commit(TableCommit commit, long identifier, List<CommitMessage> messages) {
        try {
            CommitAction.append().commit(commit, identifier, messages);
        } catch (RuntimeException e) {
            FAILURES.computeIfAbsent(commit.commitUser(), u -> new CopyOnWriteArrayList<>()).add(e);
            throw e;
        }
    }
}
