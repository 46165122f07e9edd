package dev.streamhouse.storage.mergetree.compact;

import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.mergetree.IntervalPartition;
import dev.streamhouse.storage.mergetree.KeyComparator;
import dev.streamhouse.storage.mergetree.SortedRun;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;

/**
 * Carries out one {@link CompactUnit}: splits its files into key sections that overlap nothing else
 * ({@link IntervalPartition}) and, section by section in key order, either rewrites or upgrades.
 *
 * <p><b>Deletes.</b> Retractions are dropped ({@link #dropDelete(int, int)}) only when the output
 * level is not 0 and is at or above the highest non-empty level: then the unit holds every run at or
 * below the output level, so no older record of a key exists outside it.
 *
 * <p><b>Upgrade or rewrite.</b> A section that is a single file is <em>upgraded</em> (moved to the
 * output level, records untouched) when it is at least {@code compactionFileSize} bytes and need not
 * be rewritten; it needs rewriting when deletes are dropped and it may hold retractions (delete row
 * count &gt; 0, or unknown). A file already on the output level is left alone (no entries).
 *
 * <p><b>Batching.</b> All other sections are gathered, in key order, into rewrite batches: a batch
 * is rewritten by one {@link CompactRewriter#rewrite} call when its input size reaches
 * {@code compactionFileSize}, before an upgraded section, and at the end. So small neighbouring
 * sections become one file rather than many tiny ones, and a batch's output never spans an upgraded
 * file. A batch that is just one small single file needing no rewrite is upgraded instead.
 *
 * <p><b>File rewrite units.</b> For {@link CompactUnit#fileRewrite()} every section is rewritten by
 * its own call: the unit may hold only part of a level, and a batch's output could then cover files
 * of that level outside the unit.
 *
 * <p><b>Threading and failure.</b> Runs on a compaction thread; touches only its inputs and the
 * rewriter. Checks for interruption between steps. If a step fails or the thread is interrupted, it
 * asks the rewriter to discard the files written by earlier steps and rethrows.
 */
public final class MergeTreeCompactTask implements Callable<CompactResult> {
    private final KeyComparator keyComparator;
    private final long compactionFileSize;
    private final CompactRewriter rewriter;
    private final CompactUnit unit;
    private final boolean dropDelete;

    /**
     * @param compactionFileSize bytes below which a section counts as small (e.g. a fraction of
     *     {@code target-file-size})
     * @param nonEmptyHighestLevel the bucket's highest non-empty level when the unit was picked
     */
    public MergeTreeCompactTask(KeyComparator keyComparator, long compactionFileSize, CompactRewriter rewriter,
            CompactUnit unit, int nonEmptyHighestLevel) {
        this(keyComparator, compactionFileSize, rewriter, unit, nonEmptyHighestLevel, false);
    }

    /**
     * @param deletionVectors whether the table has deletion vectors: then retractions are dropped on every
     *     output level above 0, since the versions they retract are marked deleted instead and readers read
     *     the files above level 0 without merging
     */
    public MergeTreeCompactTask(KeyComparator keyComparator, long compactionFileSize, CompactRewriter rewriter,
            CompactUnit unit, int nonEmptyHighestLevel, boolean deletionVectors) {
        this.keyComparator = keyComparator;
        this.compactionFileSize = compactionFileSize;
        this.rewriter = rewriter;
        this.unit = unit;
        this.dropDelete = dropDelete(unit.outputLevel(), nonEmptyHighestLevel)
                || (deletionVectors && unit.outputLevel() != 0);
    }

    /** Whether retractions may be dropped when writing to {@code outputLevel} (without deletion vectors). */
    public static boolean dropDelete(int outputLevel, int nonEmptyHighestLevel) {
        return outputLevel != 0 && outputLevel >= nonEmptyHighestLevel;
    }

    /** Whether this task drops retractions. */
    public boolean dropDelete() {
        return dropDelete;
    }

    @Override
    public CompactResult call() throws Exception {
        List<List<SortedRun>> sections = new IntervalPartition(unit.files(), keyComparator).partition();
        Steps steps = new Steps();
        try {
            if (unit.fileRewrite()) {
                for (List<SortedRun> section : sections) {
                    steps.rewrite(List.of(section));
                }
            } else {
                rewriteOrUpgrade(sections, steps);
            }
            checkNotInterrupted();
            return steps.result;
        } catch (Exception e) {
            steps.discardWritten(e);
            throw e;
        }
    }

    private void rewriteOrUpgrade(List<List<SortedRun>> sections, Steps steps) throws Exception {
        List<List<SortedRun>> batch = new ArrayList<>();
        long batchSize = 0;
        for (List<SortedRun> section : sections) {
            DataFileMeta single = singleFile(section);
            if (single != null && single.fileSize() >= compactionFileSize && !mustRewrite(single)) {
                flush(batch, steps);
                batchSize = 0;
                steps.upgrade(single);
                continue;
            }
            batch.add(section);
            batchSize += size(section);
            if (batchSize >= compactionFileSize) {
                flush(batch, steps);
                batchSize = 0;
            }
        }
        flush(batch, steps);
    }

    private void flush(List<List<SortedRun>> batch, Steps steps) throws Exception {
        if (batch.isEmpty()) {
            return;
        }
        DataFileMeta single = batch.size() == 1 ? singleFile(batch.get(0)) : null;
        if (single != null && !mustRewrite(single)) {
            steps.upgrade(single);
        } else {
            steps.rewrite(List.copyOf(batch));
        }
        batch.clear();
    }

    private boolean mustRewrite(DataFileMeta file) {
        return dropDelete && (file.deleteRowCount() == null || file.deleteRowCount() > 0);
    }

    private static DataFileMeta singleFile(List<SortedRun> section) {
        return section.size() == 1 && section.get(0).files().size() == 1 ? section.get(0).files().get(0) : null;
    }

    private static long size(List<SortedRun> section) {
        long size = 0;
        for (SortedRun run : section) {
            size += run.totalSize();
        }
        return size;
    }

    private static void checkNotInterrupted() throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException("Compaction cancelled");
        }
    }

    /** The result so far, and the files rewritten so far (to discard on failure). */
    private final class Steps {
        CompactResult result = CompactResult.empty();
        final List<DataFileMeta> written = new ArrayList<>();

        void rewrite(List<List<SortedRun>> sections) throws Exception {
            checkNotInterrupted();
            CompactResult r = rewriter.rewrite(unit.outputLevel(), dropDelete, sections);
            written.addAll(newFiles(r));
            result = result.merge(r);
        }

        void upgrade(DataFileMeta file) throws Exception {
            if (file.level() == unit.outputLevel()) {
                return;
            }
            checkNotInterrupted();
            CompactResult r = rewriter.upgrade(unit.outputLevel(), file);
            written.addAll(newFiles(r));
            result = result.merge(r);
        }

        void discardWritten(Exception failure) {
            if (written.isEmpty()) {
                return;
            }
            try {
                rewriter.discardRewritten(List.copyOf(written));
            } catch (Exception e) {
                failure.addSuppressed(e);
            }
        }
    }

    /**
     * Files a result adds that it does not also remove, i.e. new files rather than upgrades, and its
     * changelog files: what to delete when the result is never applied.
     */
    static List<DataFileMeta> newFiles(CompactResult result) {
        Set<String> before = new HashSet<>();
        for (DataFileMeta f : result.before()) {
            before.add(f.fileName());
        }
        List<DataFileMeta> created = new ArrayList<>();
        for (DataFileMeta f : result.after()) {
            if (!before.contains(f.fileName())) {
                created.add(f);
            }
        }
        created.addAll(result.changelog());
        return created;
    }
}
