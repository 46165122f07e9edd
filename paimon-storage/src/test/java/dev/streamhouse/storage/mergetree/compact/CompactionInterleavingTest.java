package dev.streamhouse.storage.mergetree.compact;

import static dev.streamhouse.storage.mergetree.compact.LsmInvariants.assertFullyCompacted;
import static dev.streamhouse.storage.mergetree.compact.LsmInvariants.assertInvariants;
import static dev.streamhouse.storage.mergetree.compact.TestFiles.KEYS;
import static dev.streamhouse.storage.mergetree.compact.TestFiles.file;
import static dev.streamhouse.storage.mergetree.compact.TestFiles.withDeletes;
import static dev.streamhouse.storage.mergetree.compact.TestFiles.withSeq;
import static org.assertj.core.api.Assertions.assertThat;

import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.mergetree.LevelSortedRun;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * The manager driven by a hand-controlled executor: a submitted compaction runs only when the test
 * says so, on the test thread. A seeded {@link Random} decides, step by step, when the pending task
 * completes relative to {@code addNewFile}, {@code pollCompactionResult}, {@code triggerCompaction}
 * (and the odd cancellation), so every interleaving is reproducible from its seeds.
 *
 * <p>Besides the LSM invariants after every step, it checks the unit contract: at pick time the
 * output level and every level below it are wholly in the unit (or empty), and when the task runs the
 * live levels still agree with the unit (no pick from a stale view).
 *
 * <p>Running everything on one thread also keeps the test helpers ({@link TestFiles} reuses one
 * key writer) single-threaded.
 */
@Timeout(60)
class CompactionInterleavingTest {

    /**
     * The file sequences of {@link CompactionSimulationTest} (same draws from the same {@link Random}
     * for the same seed; identical up to its first restore, whose shuffle draws depend on how many
     * files are live) under many different timings of task completion.
     */
    @ParameterizedTest(name = "simulation seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
    void simulationFileSequencesUnderManyInterleavings(long seed) throws Exception {
        for (int timing = 0; timing < 25; timing++) {
            new Run(seed, seed * 1_000_003L + timing, 400, false).execute();
        }
    }

    /** Further random configurations, one timing each, with cancellations mixed in. */
    @Test
    void randomConfigurationsWithCancellations() throws Exception {
        for (long seed = 100; seed < 300; seed++) {
            new Run(seed, seed * 7_919L, 300, true).execute();
        }
    }

    /** One seeded run: files drawn from {@code fileSeed}, interleaving from {@code timingSeed}. */
    private static final class Run {
        private final long fileSeed;
        private final long timingSeed;
        private final int steps;
        private final boolean cancellations;
        private final Random random;
        private final Random timing;
        private final ManualExecutor executor = new ManualExecutor();
        private final RecordingRewriter rewriter = new RecordingRewriter();
        private final Deque<String> trace = new ArrayDeque<>();
        private CheckedStrategy strategy;
        private MergeTreeCompactManager manager;
        private int trigger;
        private int stop;
        private int numLevels;
        private long compactionFileSize;
        private long rows;
        private long bytes;
        private int step;

        Run(long fileSeed, long timingSeed, int steps, boolean cancellations) {
            this.fileSeed = fileSeed;
            this.timingSeed = timingSeed;
            this.steps = steps;
            this.cancellations = cancellations;
            this.random = new Random(fileSeed);
            this.timing = new Random(timingSeed);
        }

        void execute() throws Exception {
            try {
                run();
            } catch (Throwable t) {
                throw new AssertionError("file seed " + fileSeed + ", timing seed " + timingSeed + ", step " + step
                        + " (trigger " + trigger + ", stop " + stop + ", levels " + numLevels
                        + ", compactionFileSize " + compactionFileSize + "); last actions: " + trace, t);
            } finally {
                if (manager != null) {
                    manager.close();
                }
                executor.shutdownNow();
            }
        }

        private void run() throws Exception {
            // same draws as CompactionSimulationTest
            trigger = 2 + random.nextInt(5);
            stop = trigger + random.nextInt(4);
            numLevels = trigger + 1 + random.nextInt(2);
            compactionFileSize = 50 + random.nextInt(300);
            int keySpace = random.nextBoolean() ? 1_000 : 20_000;
            // how eagerly the "compaction thread" finishes: from almost always to almost never
            int completePercent = 5 + timing.nextInt(91);
            manager = newManager(List.of());
            for (step = 1; step <= steps; step++) {
                long size = 1 + random.nextInt(300);
                int min = random.nextInt(keySpace);
                DataFileMeta f = withSeq(file("f" + step, 0, min, min + random.nextInt(400), size), step, step);
                if (random.nextInt(4) == 0) {
                    f = withDeletes(f, (long) random.nextInt((int) size));
                }
                rows += f.rowCount();
                bytes += f.fileSize();
                maybeComplete(completePercent);
                act("add " + f.fileName());
                manager.addNewFile(f);
                maybeComplete(completePercent);
                act("poll");
                manager.pollCompactionResult();
                maybeComplete(completePercent);
                if (cancellations && timing.nextInt(25) == 0) {
                    act("cancel");
                    manager.cancelCompaction();
                    strategy.pending = null;
                    executor.dropCancelled();
                }
                if (timing.nextInt(5) == 0) {
                    maybeComplete(completePercent);
                    act("poll");
                    manager.pollCompactionResult();
                }
                act("trigger");
                manager.triggerCompaction();
                maybeComplete(completePercent);
                int waits = 0;
                while (manager.shouldWaitForLatestCompaction()) {
                    completeAll();
                    act("await");
                    manager.awaitCompactionResult();
                    act("trigger");
                    manager.triggerCompaction();
                    assertThat(++waits).as("writer stalls forever").isLessThan(100);
                }
                assertThat(manager.levels().numberOfSortedRuns()).isLessThanOrEqualTo(stop);
                assertInvariants(manager.levels(), rows, bytes);

                if (step % 97 == 0) {
                    completeAll();
                    manager.awaitCompactionResult();
                    act("full");
                    manager.triggerFullCompaction();
                    completeAll();
                    manager.awaitCompactionResult();
                    assertFullyCompacted(manager.levels(), rows, bytes);
                }
                if (step % 131 == 0) {
                    completeAll();
                    manager.awaitCompactionResult();
                    List<DataFileMeta> restored = new ArrayList<>(manager.allFiles());
                    Collections.shuffle(restored, random);
                    act("restore");
                    manager.close();
                    manager = newManager(restored);
                    assertInvariants(manager.levels(), rows, bytes);
                }
            }
            completeAll();
            manager.awaitCompactionResult();
            manager.triggerFullCompaction();
            completeAll();
            manager.awaitCompactionResult();
            assertFullyCompacted(manager.levels(), rows, bytes);
            if (!cancellations) {
                assertThat(rewriter.discarded).isEmpty();
            }
        }

        private MergeTreeCompactManager newManager(List<DataFileMeta> files) {
            strategy = new CheckedStrategy(new UniversalCompaction(200, 1, trigger));
            return new MergeTreeCompactManager(executor, new Levels(KEYS, files, numLevels), strategy, KEYS,
                    compactionFileSize, stop, rewriter);
        }

        private void maybeComplete(int percent) {
            if (executor.hasPending() && timing.nextInt(100) < percent) {
                completeNext();
            }
        }

        private void completeAll() {
            while (executor.hasPending()) {
                completeNext();
            }
        }

        /** Runs the pending task, after checking its unit against the live levels. */
        private void completeNext() {
            CompactUnit unit = strategy.pending;
            if (unit != null) {
                checkUnitAgainstLiveLevels(unit, manager.levels());
                strategy.pending = null;
            }
            act("complete" + (unit == null ? "" : " ->L" + unit.outputLevel()));
            executor.runNext();
        }

        private void act(String action) {
            trace.addLast(step + ":" + action);
            if (trace.size() > 40) {
                trace.removeFirst();
            }
        }
    }

    /** Checks every unit the strategy picks against the runs it was picked from. */
    private static final class CheckedStrategy implements CompactStrategy {
        private final CompactStrategy delegate;
        /** The unit picked and submitted whose task has not run yet. */
        CompactUnit pending;

        CheckedStrategy(CompactStrategy delegate) {
            this.delegate = delegate;
        }

        @Override
        public Optional<CompactUnit> pick(int numLevels, List<LevelSortedRun> runs) {
            Optional<CompactUnit> unit = delegate.pick(numLevels, runs);
            if (unit.isPresent()) {
                assertThat(pending).as("a second unit picked while one is pending").isNull();
                checkUnitAgainstRuns(unit.get(), runs);
                pending = unit.get();
            }
            return unit;
        }
    }

    /** Whole runs; the output level and every level below it wholly in the unit or empty. */
    private static void checkUnitAgainstRuns(CompactUnit unit, List<LevelSortedRun> runs) {
        assertThat(unit.outputLevel()).as("output level").isPositive();
        Set<String> inUnit = names(unit.files());
        for (LevelSortedRun run : runs) {
            Set<String> runNames = names(run.run().files());
            boolean any = runNames.stream().anyMatch(inUnit::contains);
            if (any || run.level() <= unit.outputLevel()) {
                assertThat(inUnit).as("unit to level %s must hold all of level %s", unit.outputLevel(), run.level())
                        .containsAll(runNames);
            }
        }
    }

    /**
     * When the task runs, every unit file is still live on its level and every file on a level
     * 1..outputLevel is in the unit (new level-0 files may have arrived meanwhile).
     */
    private static void checkUnitAgainstLiveLevels(CompactUnit unit, Levels levels) {
        Set<String> live = new HashSet<>();
        for (DataFileMeta f : levels.allFiles()) {
            live.add(f.level() + "/" + f.fileName());
        }
        for (DataFileMeta f : unit.files()) {
            assertThat(live).as("unit file still live on its level").contains(f.level() + "/" + f.fileName());
        }
        Set<String> inUnit = names(unit.files());
        for (int level = 1; level <= unit.outputLevel(); level++) {
            assertThat(inUnit).as("stale unit: level %s has files outside the unit", level)
                    .containsAll(names(levels.runOfLevel(level).files()));
        }
    }

    private static Set<String> names(List<DataFileMeta> files) {
        return new HashSet<>(TestFiles.names(files));
    }

    /** Queues submitted tasks; each runs on the calling (test) thread when {@link #runNext()} is called. */
    private static final class ManualExecutor extends AbstractExecutorService {
        private final Deque<Runnable> queue = new ArrayDeque<>();
        private boolean shutdown;

        @Override
        public void execute(Runnable command) {
            if (shutdown) {
                throw new RejectedExecutionException("executor shut down");
            }
            queue.addLast(command);
        }

        boolean hasPending() {
            return !queue.isEmpty();
        }

        void runNext() {
            queue.removeFirst().run();
        }

        /** Forgets tasks cancelled before they ran (running them would do nothing anyway). */
        void dropCancelled() {
            queue.removeIf(r -> r instanceof Future<?> f && f.isCancelled());
        }

        @Override
        public void shutdown() {
            shutdown = true;
        }

        @Override
        public List<Runnable> shutdownNow() {
            shutdown = true;
            List<Runnable> left = new ArrayList<>(queue);
            queue.clear();
            return left;
        }

        @Override
        public boolean isShutdown() {
            return shutdown;
        }

        @Override
        public boolean isTerminated() {
            return shutdown && queue.isEmpty();
        }

        @Override
        public boolean awaitTermination(long timeout, TimeUnit unit) {
            return isTerminated();
        }
    }
}
