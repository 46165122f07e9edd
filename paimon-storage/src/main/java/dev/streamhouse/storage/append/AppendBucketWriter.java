package dev.streamhouse.storage.append;

import dev.streamhouse.storage.commit.CompactIncrement;
import dev.streamhouse.storage.commit.DataIncrement;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.io.AppendFileWriter;
import dev.streamhouse.storage.manifest.DataFileMeta;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.LongFunction;

/**
 * Writes one bucket of a fixed-bucket append table for the life of a write: new rows go into rolling
 * data files numbered on from the bucket's largest sequence number, and the bucket's small files are
 * compacted in the background ({@link AppendCompactManager}), as Apache Paimon 1.3.1's bucketed append
 * writer does. The writer keeps the bucket's file list across commits (restored files, its own new
 * files, minus what its compactions replaced), so it only ever compacts files that are in the table
 * or travel with its own commits, in sequence order.
 *
 * <p>At each {@link #prepareCommit}: the open file is finished and becomes a candidate, a finished
 * compaction is collected, the next one is started (unless {@code write-only}), and the commit waits
 * for the running one only if asked to (the end of a bounded input) or {@code commit.force-compact}
 * is set. A compaction's result thus travels with the commit after the one that started it, or with
 * the same one if the commit waits; it may replace files handed out in earlier, uncommitted
 * increments, which the committer commits first (commits happen in order).
 *
 * <p>Files handed out by {@link #prepareCommit} belong to the caller; {@link #close()} cancels the
 * running compaction and deletes everything written since. Writer thread only.
 */
public final class AppendBucketWriter implements AutoCloseable {
    private final LongFunction<AppendFileWriter> newRowsWriter;
    private final AppendCompactManager compactions;
    private final boolean autoCompact;
    private final boolean waitAtCommit;
    private final Consumer<List<DataFileMeta>> deleteFiles;
    private long nextSequence;
    private AppendFileWriter current;

    private final List<DataFileMeta> newFiles = new ArrayList<>();
    private final List<DataFileMeta> compactBefore = new ArrayList<>();
    private final List<DataFileMeta> compactAfter = new ArrayList<>();

    /**
     * @param newRowsWriter a writer of new rows ({@code _FILE_SOURCE} APPEND) numbering from the given
     *     sequence number
     * @param nextSequence the sequence number of the bucket's next row (its largest one + 1)
     * @param autoCompact whether commits start compactions (false with {@code write-only}; explicit
     *     {@link #compact} still works)
     * @param waitAtCommit {@code commit.force-compact}: every commit waits for the running compaction
     * @param deleteFiles deletes files of this bucket quietly (cleanup)
     */
    public AppendBucketWriter(LongFunction<AppendFileWriter> newRowsWriter, long nextSequence,
            AppendCompactManager compactions, boolean autoCompact, boolean waitAtCommit,
            Consumer<List<DataFileMeta>> deleteFiles) {
        this.newRowsWriter = newRowsWriter;
        this.nextSequence = nextSequence;
        this.compactions = compactions;
        this.autoCompact = autoCompact;
        this.waitAtCommit = waitAtCommit;
        this.deleteFiles = deleteFiles;
    }

    /** The sequence number the next row gets. */
    public long nextSequenceNumber() {
        return current == null ? nextSequence : current.nextSequenceNumber();
    }

    public void write(InternalRow row) throws IOException {
        if (current == null) {
            current = newRowsWriter.apply(nextSequence);
        }
        current.write(row);
    }

    /** Finishes the open file; its files become new files of the next increment and candidates. */
    private void flush() throws IOException {
        if (current == null) {
            return;
        }
        AppendFileWriter w = current;
        List<DataFileMeta> files = w.prepareCommit();
        current = null;
        nextSequence = w.nextSequenceNumber();
        for (DataFileMeta f : files) {
            compactions.addNewFile(f);
        }
        newFiles.addAll(files);
    }

    /**
     * Compacts the bucket (after finishing the open file): waits for a running compaction, then starts a
     * full one or, if not {@code full}, the minor one the rules pick. The result travels with a later
     * {@link #prepareCommit} (a waiting one at the latest).
     */
    public void compact(boolean full) throws IOException {
        flush();
        collect(compactions.awaitResult());
        compactions.triggerCompaction(full);
    }

    /** What the bucket hands to the committer now. */
    public record Increment(DataIncrement data, CompactIncrement compact) {
        public boolean isEmpty() {
            return data.isEmpty() && compact.isEmpty();
        }
    }

    /**
     * The increments since the last call (see the class comment).
     *
     * @param waitCompaction whether to wait for the running compaction and include its result
     */
    public Increment prepareCommit(boolean waitCompaction) throws IOException {
        flush();
        collect(compactions.pollResult());
        if (autoCompact) {
            compactions.triggerCompaction(false);
        }
        if (waitCompaction || waitAtCommit) {
            collect(compactions.awaitResult());
        }
        Increment out = new Increment(DataIncrement.ofNewFiles(new ArrayList<>(newFiles)),
                new CompactIncrement(new ArrayList<>(compactBefore), new ArrayList<>(compactAfter), List.of()));
        newFiles.clear();
        compactBefore.clear();
        compactAfter.clear();
        return out;
    }

    /**
     * Adds a finished compaction to the increment. An input that an earlier compaction of the same
     * increment wrote never reaches a snapshot: it leaves that compaction's output and is deleted.
     */
    private void collect(Optional<AppendCompactManager.Result> result) {
        if (result.isEmpty()) {
            return;
        }
        List<DataFileMeta> superseded = new ArrayList<>();
        for (DataFileMeta f : result.get().before()) {
            if (compactAfter.remove(f)) {
                superseded.add(f);
            } else {
                compactBefore.add(f);
            }
        }
        compactAfter.addAll(result.get().after());
        deleteFiles.accept(superseded);
    }

    /** Cancels the compaction and deletes the files written since the last {@link #prepareCommit}. */
    @Override
    public void close() {
        compactions.cancelCompaction();
        if (current != null) {
            current.abort();
            current = null;
        }
        deleteFiles.accept(newFiles);
        deleteFiles.accept(compactAfter);
        newFiles.clear();
        compactBefore.clear();
        compactAfter.clear();
    }
}
