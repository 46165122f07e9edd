package dev.streamhouse.storage.append;

import dev.streamhouse.storage.manifest.DataFileMeta;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * Runs the compactions of one bucket of a fixed-bucket append table in the background, by Apache
 * Paimon 1.3.1's rules for its bucketed append writers (read from its bytecode):
 * <ul>
 *   <li><b>Candidates</b> are the bucket's files in sequence order: the live files the writer
 *       restored, each file it flushes ({@link #addNewFile}), and the last output of each compaction
 *       if that is still smaller than the target size.
 *   <li><b>Minor</b> ({@code triggerCompaction(false)}, after every flush): unless a compaction runs,
 *       the sliding window of {@link AppendCompactPlanner#minorWindow}; the files it dropped from its
 *       head (they reached the target size) stop being candidates; a complete window of
 *       {@code compaction.min.file-num} files is rewritten.
 *   <li><b>Full</b> ({@code triggerCompaction(true)}): every candidate is handed over, and
 *       {@link AppendCompactPlanner#fullBucket} decides what is rewritten; only the small last output
 *       comes back as a candidate.
 * </ul>
 * A rewrite covers consecutive files and numbers its rows on from the first one's sequence number, so
 * the bucket keeps its row order. At most one compaction runs at a time, on the caller's executor
 * (which may serve many buckets). Nothing here ever makes the writer wait: Paimon's append writers
 * have no stop trigger; the writer awaits a compaction only at a commit that asks for it.
 *
 * <p>Threading: every method is called from the bucket's writer thread; the task touches only its
 * files and the rewriter. Failure: a failed compaction is thrown once by the call that collects it;
 * its files become candidates again.
 */
public final class AppendCompactManager {
    /** Rewrites consecutive files of the bucket; deletes what it wrote if it fails. */
    public interface Rewriter {
        List<DataFileMeta> rewrite(List<DataFileMeta> files) throws IOException;

        /** Deletes files the rewriter wrote that will never be committed; quietly, as a cleanup. */
        void discard(List<DataFileMeta> files);
    }

    /** A finished compaction: {@code before} were rewritten into {@code after}. */
    public record Result(List<DataFileMeta> before, List<DataFileMeta> after) {}

    static final Comparator<DataFileMeta> BY_SEQUENCE =
            Comparator.comparingLong(DataFileMeta::minSequenceNumber).thenComparing(DataFileMeta::fileName);

    private final ExecutorService executor;
    private final AppendCompactPlanner planner;
    private final Rewriter rewriter;
    private final long targetFileSize;
    private final TreeSet<DataFileMeta> candidates = new TreeSet<>(BY_SEQUENCE);
    /** The submitted compaction whose result was not collected, or null. */
    private Task running;
    private Future<List<DataFileMeta>> future;

    /** @param restored the bucket's live files the writer starts from */
    public AppendCompactManager(ExecutorService executor, AppendCompactPlanner planner, long targetFileSize,
            Rewriter rewriter, List<DataFileMeta> restored) {
        this.executor = executor;
        this.planner = planner;
        this.targetFileSize = targetFileSize;
        this.rewriter = rewriter;
        candidates.addAll(restored);
    }

    /** A file the writer flushed. */
    public void addNewFile(DataFileMeta file) {
        candidates.add(file);
    }

    /** The files a compaction may still pick, in sequence order (for tests and diagnostics). */
    public List<DataFileMeta> candidates() {
        return new ArrayList<>(candidates);
    }

    /**
     * Starts a compaction unless one is running or uncollected (then does nothing for a minor one).
     *
     * @throws IllegalStateException for a full compaction while one is running: collect it first
     */
    public void triggerCompaction(boolean full) {
        if (running != null) {
            if (full) {
                throw new IllegalStateException("Cannot start a full compaction: a compaction is still running; "
                        + "await its result first");
            }
            return;
        }
        List<DataFileMeta> files = new ArrayList<>(candidates);
        if (full) {
            if (!planner.fullBucketMayCompact(files.size())) {
                return;
            }
            candidates.clear();
            submit(planner.fullBucket(files));
            return;
        }
        AppendCompactPlanner.Window window = planner.minorWindow(files);
        files.subList(0, window.from()).forEach(candidates::remove);
        if (window.complete()) {
            List<DataFileMeta> group = new ArrayList<>(files.subList(window.from(), window.to()));
            group.forEach(candidates::remove);
            submit(group);
        }
    }

    private void submit(List<DataFileMeta> group) {
        if (group.isEmpty()) {
            return;
        }
        running = new Task(List.copyOf(group));
        future = executor.submit(running);
    }

    /** True while a started compaction has not been collected. */
    public boolean compactNotCompleted() {
        return running != null;
    }

    /** The finished compaction's result, if one finished; never blocks. */
    public Optional<Result> pollResult() throws IOException {
        if (running == null || !future.isDone()) {
            return Optional.empty();
        }
        return collect();
    }

    /** Waits for the running compaction and returns its result; empty if none runs. */
    public Optional<Result> awaitResult() throws IOException {
        if (running == null) {
            return Optional.empty();
        }
        return collect();
    }

    private Optional<Result> collect() throws IOException {
        Task task = running;
        List<DataFileMeta> after;
        try {
            after = future.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("Interrupted while waiting for the compaction of files "
                    + names(task.group));
        } catch (ExecutionException e) {
            running = null;
            future = null;
            candidates.addAll(task.group);
            Throwable cause = e.getCause();
            if (cause instanceof IOException io) {
                throw io;
            }
            if (cause instanceof RuntimeException re) {
                throw re;
            }
            if (cause instanceof Error err) {
                throw err;
            }
            throw new IOException("Cannot compact files " + names(task.group) + ": " + cause, cause);
        }
        running = null;
        future = null;
        if (!after.isEmpty() && after.get(after.size() - 1).fileSize() < targetFileSize) {
            candidates.add(after.get(after.size() - 1));
        }
        return Optional.of(new Result(task.group, after));
    }

    /**
     * Abandons the running or uncollected compaction without waiting for it to finish: its output is
     * deleted (by the task itself if it is still running), and its files are candidates again.
     */
    public void cancelCompaction() {
        Task task = running;
        if (task == null) {
            return;
        }
        Future<List<DataFileMeta>> abandoned = future;
        running = null;
        future = null;
        candidates.addAll(task.group);
        if (task.abandon()) {
            abandoned.cancel(true);
            return;
        }
        try {
            rewriter.discard(abandoned.get());
        } catch (ExecutionException | CancellationException e) {
            // it failed, and deleted what it wrote
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static List<String> names(List<DataFileMeta> files) {
        List<String> out = new ArrayList<>();
        files.forEach(f -> out.add(f.fileName()));
        return out;
    }

    /**
     * One rewrite. It hands its output over only if it was not abandoned first; an abandoned task
     * deletes what it wrote, so no output is ever lost between the two threads.
     */
    private final class Task implements Callable<List<DataFileMeta>> {
        final List<DataFileMeta> group;
        private boolean abandoned;
        private boolean finished;

        Task(List<DataFileMeta> group) {
            this.group = group;
        }

        @Override
        public List<DataFileMeta> call() throws Exception {
            List<DataFileMeta> after = rewriter.rewrite(group);
            synchronized (this) {
                if (abandoned) {
                    rewriter.discard(after);
                    throw new CancellationException("Compaction of files " + names(group) + " abandoned");
                }
                finished = true;
            }
            return after;
        }

        /** Marks the task abandoned; true if it will delete its own output, false if it already finished. */
        synchronized boolean abandon() {
            abandoned = true;
            return !finished;
        }
    }
}
