package dev.streamhouse.flink.sink.testutils;

import dev.streamhouse.flink.sink.CommitAction;
import dev.streamhouse.storage.commit.CommitMessage;
import dev.streamhouse.storage.table.sink.TableCommit;
import dev.streamhouse.storage.testutils.FailingFileIO;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * {@link CommitAction#append()} that, on the {@code target}-th commit holding new data (counted from the
 * job's start, restored commits not counted), arms the table's {@link FailingFileIO} and counts the
 * FileIO calls that commit made in the committer's thread (expiration after the commit included). A
 * recording pass (arming nothing) tells how many calls one commit makes; a sweep then fails each in
 * turn ({@link FailingFileIO#armInThisThread}). One arming per plan: after it, commits run plainly.
 *
 * <p>The action is serialized with the job; its plan lives in a static registry under its name, so the
 * test sees what the committer task did (same JVM, as in a MiniCluster).
 */
public final class CommitFaults implements CommitAction {
    private static final long serialVersionUID = 1L;
    private static final Map<String, Plan> PLANS = new ConcurrentHashMap<>();

    /** What to arm at the target commit, and what that commit then did. */
    public static final class Plan {
        private final FailingFileIO io;
        private final int target;
        private final Consumer<FailingFileIO> arming;
        private Consumer<FailingFileIO> afterFailure;
        private int dataCommits;
        private volatile boolean reached;
        private volatile int calls = -1;
        private volatile int injected;
        private volatile List<FailingFileIO.Call> log = List.of();
        private volatile Throwable thrown;

        Plan(FailingFileIO io, int target, Consumer<FailingFileIO> arming) {
            this.io = io;
            this.target = target;
            this.arming = arming;
        }

        /** Whether the target commit ran. */
        public boolean reached() {
            return reached;
        }

        /** FileIO calls of the committer's thread during the target commit (up to the failure, if any). */
        public int calls() {
            return calls;
        }

        /** Failures injected during the target commit (by any thread). */
        public int injected() {
            return injected;
        }

        /** What the target commit threw, or null. */
        public Throwable thrown() {
            return thrown;
        }

        /** All calls (of every thread) made during the target commit, for messages. */
        public List<FailingFileIO.Call> log() {
            return log;
        }
    }

    private final String name;

    private CommitFaults(String name) {
        this.name = name;
    }

    /**
     * A commit action that arms {@code io} with {@code arming} (null: arm nothing, only count) at the
     * {@code target}-th data commit.
     */
    public static CommitFaults at(FailingFileIO io, int target, Consumer<FailingFileIO> arming) {
        PLANS.put(io.name(), new Plan(io, target, arming));
        return new CommitFaults(io.name());
    }

    /**
     * When the target commit fails, arms {@code io} with {@code arming} for the recovery (instead of
     * disarming it): a second fault while the job restores and commits again.
     */
    public CommitFaults thenOnRecovery(Consumer<FailingFileIO> arming) {
        plan().afterFailure = arming;
        return this;
    }

    public Plan plan() {
        return PLANS.get(name);
    }

    public void release() {
        PLANS.remove(name);
    }

    @Override
    public void commit(TableCommit commit, long identifier, List<CommitMessage> messages) {
        commit(commit, identifier, null, messages);
    }

    @Override
    public void commit(TableCommit commit, long identifier, Long watermark, List<CommitMessage> messages) {
        Plan plan = plan();
        boolean target = false;
        synchronized (plan) {
            if (!plan.reached && messages.stream().anyMatch(m -> !m.dataIncrement().isEmpty())) {
                target = ++plan.dataCommits == plan.target;
                plan.reached = target;
            }
        }
        if (!target) {
            CommitAction.append().commit(commit, identifier, watermark, messages);
            return;
        }
        int callsBefore = plan.io.callsInThisThread();
        int injectedBefore = plan.io.failuresInjected();
        plan.io.resetCallCount();
        if (plan.arming != null) {
            plan.arming.accept(plan.io);
        }
        try {
            CommitAction.append().commit(commit, identifier, watermark, messages);
        } catch (RuntimeException | Error e) {
            plan.thrown = e;
            throw e;
        } finally {
            plan.io.disarm();
            if (plan.thrown != null && plan.afterFailure != null) {
                plan.afterFailure.accept(plan.io);
            }
            plan.calls = plan.io.callsInThisThread() - callsBefore;
            plan.injected = plan.io.failuresInjected() - injectedBefore;
            plan.log = plan.io.calls();
        }
    }
}
