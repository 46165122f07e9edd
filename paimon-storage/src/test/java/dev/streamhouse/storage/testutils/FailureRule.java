package dev.streamhouse.storage.testutils;

import dev.streamhouse.storage.fs.Path;

import java.util.EnumSet;
import java.util.Random;
import java.util.Set;
import java.util.function.Predicate;

/** When an armed {@link FailingFileIO} fails a call, and whether before or after performing it. */
interface FailureRule {

    /** Fail without performing the operation, or perform it and then fail. */
    enum Timing {
        BEFORE,
        AFTER
    }

    /** The timing with which to fail this call, or null to let it through. */
    Timing decide(int callNumber, FileOperation operation, Path path, Path otherPath);

    /** Whether the rule can fail no further calls (then the FileIO disarms itself). */
    boolean exhausted();

    /** Whether the rule is asked about (uncounted) {@link FileOperation#WRITE}s at all. */
    default boolean mayFailWrites() {
        return false;
    }

    /** Fails exactly call number {@code target}. */
    final class AtCall implements FailureRule {
        private final int target;
        private final Timing timing;
        private boolean fired;

        AtCall(int target, Timing timing) {
            this.target = target;
            this.timing = timing;
        }

        @Override
        public Timing decide(int callNumber, FileOperation operation, Path path, Path otherPath) {
            if (callNumber == target) {
                fired = true;
                return timing;
            }
            return null;
        }

        @Override
        public boolean exhausted() {
            return fired;
        }
    }

    /** Fails the n-th call (from arming) that one thread makes; calls of other threads pass. */
    final class InThread implements FailureRule {
        private final Thread thread;
        private final int nth;
        private final Timing timing;
        private int seen;
        private boolean fired;

        InThread(Thread thread, int nth, Timing timing) {
            this.thread = thread;
            this.nth = nth;
            this.timing = timing;
        }

        @Override
        public Timing decide(int callNumber, FileOperation operation, Path path, Path otherPath) {
            if (Thread.currentThread() != thread || fired) {
                return null;
            }
            if (++seen == nth) {
                fired = true;
                return timing;
            }
            return null;
        }

        @Override
        public boolean exhausted() {
            return fired;
        }
    }

    /** Fails the n-th matching call (from arming) of the given operations (all if empty), once. */
    final class NthMatching implements FailureRule {
        private final Set<FileOperation> operations;
        private final boolean explicitWrite;
        private final Predicate<Path> paths;
        private final int nth;
        private final Timing timing;
        private int seen;
        private boolean fired;

        NthMatching(int nth, Predicate<Path> paths, FileOperation[] operations, Timing timing) {
            this.nth = nth;
            this.paths = paths;
            this.operations = operations.length == 0 ? EnumSet.allOf(FileOperation.class) : EnumSet.of(operations[0], operations);
            this.explicitWrite = java.util.Arrays.asList(operations).contains(FileOperation.WRITE);
            this.timing = timing;
        }

        /** Whether {@code WRITE} was named explicitly (an empty list of operations does not fail writes). */
        @Override
        public boolean mayFailWrites() {
            return explicitWrite;
        }

        @Override
        public Timing decide(int callNumber, FileOperation operation, Path path, Path otherPath) {
            boolean matches = !fired && operations.contains(operation)
                    && (paths.test(path) || (otherPath != null && paths.test(otherPath)));
            if (matches && ++seen == nth) {
                fired = true;
                return timing;
            }
            return null;
        }

        @Override
        public boolean exhausted() {
            return fired;
        }
    }

    /** Fails calls of the given operations (all if empty) on matching paths, up to a number of times. */
    final class Matching implements FailureRule {
        private final Set<FileOperation> operations;
        private final boolean explicitWrite;
        private final Predicate<Path> paths;
        private final Timing timing;
        private int remaining;

        Matching(Predicate<Path> paths, FileOperation[] operations, Timing timing, int times) {
            this.paths = paths;
            this.operations = operations.length == 0 ? EnumSet.allOf(FileOperation.class) : EnumSet.of(operations[0], operations);
            this.explicitWrite = java.util.Arrays.asList(operations).contains(FileOperation.WRITE);
            this.timing = timing;
            this.remaining = times;
        }

        /** Whether {@code WRITE} was named explicitly (an empty list of operations does not fail writes). */
        @Override
        public boolean mayFailWrites() {
            return explicitWrite;
        }

        @Override
        public Timing decide(int callNumber, FileOperation operation, Path path, Path otherPath) {
            boolean matches = operations.contains(operation)
                    && (paths.test(path) || (otherPath != null && paths.test(otherPath)));
            if (!matches || remaining == 0) {
                return null;
            }
            if (remaining != Integer.MAX_VALUE) {
                remaining--;
            }
            return timing;
        }

        @Override
        public boolean exhausted() {
            return remaining == 0;
        }
    }

    /** Fails each call with a probability, up to a number of failures. */
    final class Randomly implements FailureRule {
        private final double probability;
        private final Random random;
        private int remaining;

        Randomly(double probability, int maxFailures, long seed) {
            this.probability = probability;
            this.random = new Random(seed);
            this.remaining = maxFailures;
        }

        @Override
        public Timing decide(int callNumber, FileOperation operation, Path path, Path otherPath) {
            if (remaining > 0 && random.nextDouble() < probability) {
                remaining--;
                return Timing.BEFORE;
            }
            return null;
        }

        @Override
        public boolean exhausted() {
            return remaining == 0;
        }
    }
}
