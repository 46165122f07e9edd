package dev.streamhouse.storage.mergetree.compact;

import dev.streamhouse.storage.deletionvectors.BucketDeletionVectors;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.mergetree.KeyComparator;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import dev.streamhouse.storage.metrics.WriterStats;

/**
 * Runs the compactions of one bucket: keeps its {@link Levels}, asks the strategy what to compact,
 * runs at most one {@link MergeTreeCompactTask} at a time on the executor (off the writer thread),
 * and applies each finished result to the levels exactly once.
 *
 * <p>Typical writer loop, after flushing a level-0 file:
 *
 * <pre>{@code
 * manager.addNewFile(file);
 * manager.pollCompactionResult();          // collect a finished compaction, if any
 * manager.triggerCompaction();             // start the next one, if needed and none is running
 * while (manager.shouldWaitForLatestCompaction()) {   // too many sorted runs: stall the writer
 *     manager.awaitCompactionResult();
 *     manager.triggerCompaction();
 * }
 * }</pre>
 *
 * <p>Threading: every method must be called from the one writer thread of the bucket. The task only
 * reads its unit and calls the rewriter. The executor belongs to the caller (it may serve many
 * buckets) and is not shut down here.
 *
 * <p>Deletion vectors: with the bucket's {@link BucketDeletionVectors}, a collected result also
 * removes the vectors of the files it compacted away and adds the rows it marked deleted.
 *
 * <p>Failure: a failed task leaves the levels unchanged; its exception is thrown once, by the call
 * that collects it, after which a new compaction may be triggered.
 */
public final class MergeTreeCompactManager implements AutoCloseable {
    private final ExecutorService executor;
    private final Levels levels;
    private final CompactStrategy strategy;
    private final KeyComparator keyComparator;
    private final long compactionFileSize;
    private final int numSortedRunStopTrigger;
    private final CompactRewriter rewriter;
    /** The bucket's deletion vectors ({@code deletion-vectors.enabled}), or null. */
    private final BucketDeletionVectors deletionVectors;
    /** The submitted task whose result has not been collected, or null. */
    private Future<CompactResult> running;
    /** Whether {@link #running} ended (ran to its end or was counted as abandoned). */
    private java.util.concurrent.atomic.AtomicBoolean runningEnded;
    private WriterStats stats = new WriterStats();
    private Object statsKey = this;
    private WriterStats.BucketShape lastShape;

    /**
     * @param compactionFileSize see {@link MergeTreeCompactTask}
     * @param numSortedRunStopTrigger {@code num-sorted-run.stop-trigger}: above this many sorted
     *     runs the writer waits for compaction
     */
    public MergeTreeCompactManager(ExecutorService executor, Levels levels, CompactStrategy strategy,
            KeyComparator keyComparator, long compactionFileSize, int numSortedRunStopTrigger,
            CompactRewriter rewriter) {
        this(executor, levels, strategy, keyComparator, compactionFileSize, numSortedRunStopTrigger, rewriter, null);
    }

    /**
     * @param deletionVectorsOrNull the bucket's deletion vectors, or null for a table without them. With
     *     them, every compaction to a level above 0 drops retractions (the older versions they retract
     *     are marked deleted instead), a full compaction also rewrites files that have a vector, and each
     *     collected result is applied to them together with the levels
     */
    public MergeTreeCompactManager(ExecutorService executor, Levels levels, CompactStrategy strategy,
            KeyComparator keyComparator, long compactionFileSize, int numSortedRunStopTrigger,
            CompactRewriter rewriter, BucketDeletionVectors deletionVectorsOrNull) {
        if (numSortedRunStopTrigger < 1) {
            throw new IllegalArgumentException(
                    "Cannot create compaction manager: num-sorted-run.stop-trigger must be >= 1, got "
                            + numSortedRunStopTrigger);
        }
        this.executor = executor;
        this.levels = levels;
        this.strategy = strategy;
        this.keyComparator = keyComparator;
        this.compactionFileSize = compactionFileSize;
        this.numSortedRunStopTrigger = numSortedRunStopTrigger;
        this.rewriter = rewriter;
        this.deletionVectors = deletionVectorsOrNull;
    }

    /**
     * Records the bucket's shape and compactions into {@code stats} under {@code key} (its partition and
     * bucket) from now on; {@link #close()} removes the bucket from them.
     */
    public void reportTo(WriterStats stats, Object key) {
        this.stats = java.util.Objects.requireNonNull(stats, "stats");
        this.statsKey = key;
        reportShape();
    }

    private void reportShape() {
        long level0Bytes = 0;
        List<DataFileMeta> level0 = levels.level0Files();
        for (DataFileMeta f : level0) {
            level0Bytes += f.fileSize();
        }
        lastShape = new WriterStats.BucketShape(level0.size(), level0Bytes, levels.numberOfSortedRuns(),
                levels.totalSize());
        stats.bucketChanged(statsKey, lastShape);
    }

    /** The writer waited {@code nanos} for this bucket's compaction because of the stop trigger. */
    public void waitedForCompaction(long nanos) {
        stats.waitedForCompaction(nanos);
    }

    /** Adds a flushed level-0 file. */
    public void addNewFile(DataFileMeta file) {
        levels.addLevel0File(file);
        reportShape();
    }

    /**
     * Starts the compaction the strategy picks, unless a compaction is running or uncollected (then
     * does nothing; call again after collecting it).
     */
    public void triggerCompaction() {
        if (running == null) {
            strategy.pick(levels.numberOfLevels(), levels.levelSortedRuns()).ifPresent(this::submit);
        }
    }

    /**
     * Starts a full compaction ({@link ForceFullCompaction}), if there is anything to do.
     *
     * @throws IllegalStateException if a compaction is running or uncollected: collect it first with
     *     {@link #awaitCompactionResult()}, so the full compaction sees the current levels
     */
    public void triggerFullCompaction() {
        if (running != null) {
            throw new IllegalStateException("Cannot start a full compaction: a compaction is still running; "
                    + "call awaitCompactionResult() first");
        }
        ForceFullCompaction full = deletionVectors == null ? new ForceFullCompaction()
                : new ForceFullCompaction(f -> deletionVectors.vectorOf(f.fileName()) != null);
        full.pick(levels.numberOfLevels(), levels.levelSortedRuns()).ifPresent(this::submit);
    }

    /**
     * Starts a compaction that moves every level-0 file up ({@link ForceUpLevelZeroCompaction}), if
     * there is one.
     *
     * @throws IllegalStateException if a compaction is running or uncollected
     */
    public void triggerLevelZeroCompaction() {
        if (running != null) {
            throw new IllegalStateException("Cannot move level 0 up: a compaction is still running; "
                    + "call awaitCompactionResult() first");
        }
        new ForceUpLevelZeroCompaction().pick(levels.numberOfLevels(), levels.levelSortedRuns()).ifPresent(this::submit);
    }

    private void submit(CompactUnit unit) {
        Set<String> inUnit = new HashSet<>();
        for (DataFileMeta f : unit.files()) {
            inUnit.add(f.fileName());
        }
        List<DataFileMeta> outside = new ArrayList<>();
        for (DataFileMeta f : levels.allFiles()) {
            if (f.level() > 0 && !inUnit.contains(f.fileName())) {
                outside.add(f);
            }
        }
        MergeTreeCompactTask task = new MergeTreeCompactTask(keyComparator, compactionFileSize,
                rewriter.forCompaction(outside), unit, levels.nonEmptyHighestLevel(), deletionVectors != null);
        long inputBytes = 0;
        for (DataFileMeta f : unit.files()) {
            inputBytes += f.fileSize();
        }
        long input = inputBytes;
        WriterStats reportTo = stats;
        java.util.concurrent.atomic.AtomicBoolean ended = new java.util.concurrent.atomic.AtomicBoolean();
        reportTo.compactionStarted();
        runningEnded = ended;
        running = executor.submit(() -> {
            long started = System.nanoTime();
            try {
                CompactResult result = task.call();
                if (!ended.getAndSet(true)) {
                    long output = 0;
                    for (DataFileMeta f : result.after()) {
                        output += f.fileSize();
                    }
                    reportTo.compactionCompleted((System.nanoTime() - started) / 1_000_000, input, output);
                }
                return result;
            } catch (Throwable e) {
                if (!ended.getAndSet(true)) {
                    reportTo.compactionAbandoned();
                }
                throw e;
            }
        });
    }

    /**
     * The result of the compaction if it has finished, applied to the levels; empty if none was
     * started or it is still running. Never blocks.
     *
     * @throws Exception what the compaction failed with (the levels are then unchanged)
     */
    public Optional<CompactResult> pollCompactionResult() throws Exception {
        if (running == null || !running.isDone()) {
            return Optional.empty();
        }
        return collect();
    }

    /**
     * Waits for the running compaction and returns its result, applied to the levels; empty if none
     * was started.
     *
     * @throws InterruptedException if the writer thread is interrupted while waiting (the compaction
     *     keeps running and can still be collected)
     * @throws Exception what the compaction failed with (the levels are then unchanged)
     */
    public Optional<CompactResult> awaitCompactionResult() throws Exception {
        if (running == null) {
            return Optional.empty();
        }
        return collect();
    }

    private Optional<CompactResult> collect() throws Exception {
        CompactResult result;
        try {
            result = running.get();
        } catch (ExecutionException e) {
            running = null;
            Throwable cause = e.getCause();
            if (cause instanceof Exception) {
                throw (Exception) cause;
            }
            if (cause instanceof Error) {
                throw (Error) cause;
            }
            throw e;
        }
        running = null;
        try {
            levels.update(result.before(), result.after());
            reportShape();
            if (deletionVectors != null) {
                deletionVectors.apply(result.before(), result.after(), result.deletions());
            }
        } catch (IllegalStateException e) {
            discard(result, e);
            throw e;
        }
        return Optional.of(result);
    }

    /** True while a started compaction has not been collected. */
    public boolean compactNotCompleted() {
        return running != null;
    }

    /** True when the bucket has more sorted runs than the stop trigger: the writer should wait. */
    public boolean shouldWaitForLatestCompaction() {
        return levels.numberOfSortedRuns() > numSortedRunStopTrigger;
    }

    /** All live files of the bucket, as the levels hold them. */
    public List<DataFileMeta> allFiles() {
        return levels.allFiles();
    }

    /** The bucket's levels (writer thread only; do not modify). */
    public Levels levels() {
        return levels;
    }

    /**
     * Abandons the running or uncollected compaction without waiting: the levels stay unchanged, the
     * task is interrupted, and files it already wrote are discarded (best effort).
     */
    public void cancelCompaction() {
        if (running == null) {
            return;
        }
        Future<CompactResult> abandoned = running;
        running = null;
        if (runningEnded != null && !runningEnded.getAndSet(true)) {
            stats.compactionAbandoned();
        }
        if (abandoned.cancel(true)) {
            return; // the interrupted task discards its own files
        }
        try {
            discard(abandoned.get(), null);
        } catch (ExecutionException | CancellationException e) {
            // the task failed and already discarded what it wrote
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void discard(CompactResult result, Exception failure) {
        List<DataFileMeta> created = MergeTreeCompactTask.newFiles(result);
        if (created.isEmpty()) {
            return;
        }
        try {
            rewriter.discardRewritten(created);
        } catch (Exception e) {
            if (failure != null) {
                failure.addSuppressed(e);
            }
        }
    }

    /** Cancels any compaction in progress; does not shut down the executor. */
    @Override
    public void close() {
        cancelCompaction();
        if (lastShape != null) {
            stats.bucketClosed(statsKey, lastShape);
        }
    }
}
