package dev.streamhouse.flink.sink.testutils;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * A seeded, reproducible schedule of injected failures for failover ITCases. The schedule is a
 * shuffled list of {@link Point}s, each with a number of opportunities to let pass before it fires;
 * the points call {@link #shouldFail} and throw when it says so. Only the head of the schedule can
 * fire, so failures happen in schedule order, and after a failure the next one waits until the job
 * was restored ({@link #restored}), so each failure causes its own restart (two failures racing in two
 * tasks would otherwise share one). Timing (which record, which checkpoint) still depends on
 * the scheduler; the seed reproduces the order and the skips. Static state, because the MiniCluster
 * runs in the test's JVM: {@link #arm} before each job.
 */
public final class FailurePlan {
    private FailurePlan() {}

    /** Where a failure is injected. */
    public enum Point {
        /** A record in an operator before the writers (after that instance saw a completed checkpoint). */
        RECORD(400),
        /** An operator's snapshotState, so the checkpoint is declined and the job fails over. */
        SNAPSHOT_STATE(3),
        /** The committer, on checkpoint completion (or restore), before it commits. */
        BEFORE_COMMIT(3),
        /**
         * The committer, right after a snapshot was committed and before notifyCheckpointComplete (or
         * the restore) returns: the checkpoint still lists the committed files as pending.
         */
        AFTER_COMMIT(3),
        /**
         * The committer, between the APPEND and the COMPACT snapshot of one checkpoint (only where a
         * test's commit action splits them, {@link SplitCommitAction}): the restored commit then finds
         * the checkpoint committed and the compaction (with its lookup changelog) lost.
         */
        BETWEEN_SNAPSHOTS(3);

        /** The points every sink reaches. */
        public static final java.util.Set<Point> CLASSIC =
                java.util.EnumSet.of(RECORD, SNAPSHOT_STATE, BEFORE_COMMIT, AFTER_COMMIT);

        private final int maxSkip;

        Point(int maxSkip) {
            this.maxSkip = maxSkip;
        }
    }

    private record Step(Point point, int skip) {
        @Override
        public String toString() {
            return point + "(skip " + skip + ")";
        }
    }

    private static final Deque<Step> STEPS = new ArrayDeque<>();
    private static final Map<Point, Integer> FIRED = new EnumMap<>(Point.class);
    private static int opportunitiesLeft;
    private static boolean awaitingRestore;
    private static String description = "";

    /**
     * Schedules {@code perPoint} failures at every point, shuffled by {@code seed}, and returns the
     * schedule as text (print it with the seed).
     */
    public static synchronized String arm(long seed, int perPoint) {
        return arm(seed, perPoint, Point.CLASSIC);
    }

    /** Like {@link #arm(long, int)} at {@code points} only. */
    public static synchronized String arm(long seed, int perPoint, java.util.Set<Point> points) {
        Random random = new Random(seed);
        List<Step> steps = new ArrayList<>();
        for (Point p : points) {
            for (int i = 0; i < perPoint; i++) {
                steps.add(new Step(p, random.nextInt(p.maxSkip + 1)));
            }
        }
        Collections.shuffle(steps, random);
        STEPS.clear();
        STEPS.addAll(steps);
        FIRED.clear();
        awaitingRestore = false;
        opportunitiesLeft = STEPS.peekFirst().skip;
        description = "seed " + seed + ": " + steps;
        return description;
    }

    /** Whether the caller, at {@code point}, must fail now; consumes the step if so. */
    public static synchronized boolean shouldFail(Point point) {
        Step head = STEPS.peekFirst();
        if (head == null || head.point != point || awaitingRestore) {
            return false;
        }
        if (opportunitiesLeft > 0) {
            opportunitiesLeft--;
            return false;
        }
        STEPS.pollFirst();
        FIRED.merge(point, 1, Integer::sum);
        awaitingRestore = true;
        opportunitiesLeft = STEPS.isEmpty() ? 0 : STEPS.peekFirst().skip;
        return true;
    }

    /** Throws the injected failure of {@code point} if {@link #shouldFail} says so. */
    public static void maybeFail(Point point) {
        if (shouldFail(point)) {
            throw new InjectedFailure("Injected failure at " + point + " (" + remaining() + " left; " + description
                    + ")");
        }
    }

    /** Called by a restored operator: the job recovered from the last failure; arm the next one. */
    public static synchronized void restored() {
        awaitingRestore = false;
    }

    public static synchronized int remaining() {
        return STEPS.size();
    }

    public static synchronized boolean done() {
        return STEPS.isEmpty();
    }

    public static synchronized Map<Point, Integer> fired() {
        return new EnumMap<>(FIRED);
    }

    public static synchronized String description() {
        return description;
    }

    /** The seed of system property {@code failover.seed}, else a fresh one. */
    public static long seed() {
        String s = System.getProperty("failover.seed");
        return s != null ? Long.parseLong(s) : new Random().nextLong();
    }

    /** The exception of an injected failure. */
    public static final class InjectedFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        InjectedFailure(String message) {
            super(message);
        }
    }
}
