package dev.streamhouse.storage.mergetree.write;

import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.deletionvectors.BucketDeletionVectors;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.io.DataFilePathFactory;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.manifest.FileSource;
import dev.streamhouse.storage.mergetree.KeyValue;
import dev.streamhouse.storage.mergetree.MergeFunctionFactory;
import dev.streamhouse.storage.mergetree.buffer.WriteBuffer;
import dev.streamhouse.storage.mergetree.compact.CompactResult;
import dev.streamhouse.storage.mergetree.compact.MergeTreeCompactManager;
import dev.streamhouse.storage.mergetree.io.KeyValueFileWriterFactory;
import dev.streamhouse.storage.mergetree.io.RollingKeyValueFileWriter;
import dev.streamhouse.storage.reader.RecordIterator;
import dev.streamhouse.storage.reader.RecordReader;
import dev.streamhouse.storage.commit.CompactIncrement;
import dev.streamhouse.storage.commit.DataIncrement;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Writes one (partition, bucket) of a primary-key table: records get increasing sequence numbers and
 * go into the write buffer; a full buffer (or a commit) becomes level-0 files; compaction then runs in
 * the background and the writer waits for it only when the sorted runs exceed the stop trigger, and
 * then in {@link #write} or a full buffer's flush, never in {@link #prepareCommit(boolean)
 * prepareCommit(false)}: compaction back-pressures the input, it does not hold checkpoints.
 *
 * <p><b>Input changelog</b> ({@code changelog-producer = input}): each flush first writes every
 * buffered record, unmerged and sorted by (key, sequence number), to level-0 changelog files, then the
 * merged records to data files. Changelog files are never compacted; they are handed out in
 * {@link DataIncrement#changelogFiles()} with the data files of the same flushes.
 *
 * <p><b>Level 0 at commit</b> ({@link LevelZeroAtCommit}): for tables whose compactions look up older
 * versions of keys (first-row, {@code changelog-producer} = lookup, {@code force-lookup}), commits
 * move every level-0 file up, every commit or every few, waiting for it or not; the changelog that
 * such compactions write is handed out in {@link CompactIncrement#changelogFiles()}.
 *
 * <p><b>Deletion vectors</b> ({@code deletion-vectors.enabled}): compactions maintain the bucket's
 * vectors; a commit that changed them writes the bucket's new deletion-vector index file and hands it
 * out in {@link CompactIncrement#newIndexFiles()}, the one it replaces in
 * {@link CompactIncrement#deletedIndexFiles()}.
 *
 * <p>Files written since the last {@link #prepareCommit} (data and changelog) belong to this writer
 * until then: closing it without committing deletes them. Not thread-safe (one writer thread).
 */
public final class MergeTreeWriter implements AutoCloseable {
    private final WriteBuffer buffer;
    private final MergeFunctionFactory mergeFunctions;
    private final KeyValueFileWriterFactory writers;
    private final MergeTreeCompactManager compactions;
    private final boolean writeOnly;
    private final FileIO fileIO;
    private final DataFilePathFactory pathFactory;
    private final boolean inputChangelog;
    private final LevelZeroAtCommit levelZeroAtCommit;
    private final BucketDeletionVectors deletionVectors;
    private long nextSequence;
    private int commitsSinceLevelZeroCompaction;
    /** Set when a commit's flush left the bucket above the stop trigger: the next write waits. */
    private boolean waitBeforeNextWrite;

    private final List<DataFileMeta> newFiles = new ArrayList<>();
    private final List<DataFileMeta> newChangelogFiles = new ArrayList<>();
    private final List<DataFileMeta> compactBefore = new ArrayList<>();
    private final List<DataFileMeta> compactAfter = new ArrayList<>();
    private final List<DataFileMeta> compactChangelog = new ArrayList<>();

    /**
     * @param inputChangelog whether every flush also writes the unmerged input as changelog files
     *     ({@code changelog-producer = input})
     * @param levelZeroAtCommit when commits move level 0 up, or null if they never force it
     */
    public MergeTreeWriter(WriteBuffer buffer, long nextSequence, MergeFunctionFactory mergeFunctions,
            KeyValueFileWriterFactory writers, MergeTreeCompactManager compactions, boolean writeOnly,
            FileIO fileIO, DataFilePathFactory pathFactory, boolean inputChangelog, LevelZeroAtCommit levelZeroAtCommit) {
        this(buffer, nextSequence, mergeFunctions, writers, compactions, writeOnly, fileIO, pathFactory, inputChangelog,
                levelZeroAtCommit, null);
    }

    /**
     * @param deletionVectorsOrNull the bucket's deletion vectors, which {@code compactions} maintains, or
     *     null for a table without them; a commit that changed them carries the bucket's new index file
     */
    public MergeTreeWriter(WriteBuffer buffer, long nextSequence, MergeFunctionFactory mergeFunctions,
            KeyValueFileWriterFactory writers, MergeTreeCompactManager compactions, boolean writeOnly,
            FileIO fileIO, DataFilePathFactory pathFactory, boolean inputChangelog, LevelZeroAtCommit levelZeroAtCommit,
            BucketDeletionVectors deletionVectorsOrNull) {
        this.deletionVectors = deletionVectorsOrNull;
        this.buffer = buffer;
        this.nextSequence = nextSequence;
        this.mergeFunctions = mergeFunctions;
        this.writers = writers;
        this.compactions = compactions;
        this.writeOnly = writeOnly;
        this.fileIO = fileIO;
        this.pathFactory = pathFactory;
        this.inputChangelog = inputChangelog;
        this.levelZeroAtCommit = levelZeroAtCommit;
    }

    /** The sequence number the next record gets. */
    public long nextSequenceNumber() {
        return nextSequence;
    }

    public WriteBuffer buffer() {
        return buffer;
    }

    /** The bucket's live data files, as its levels hold them (writer thread only). */
    public List<DataFileMeta> liveFiles() {
        return compactions.allFiles();
    }

    public void write(RowKind kind, InternalRow key, InternalRow value) throws IOException {
        if (waitBeforeNextWrite) {
            waitBelowStopTrigger();
        }
        long sequence = nextSequence++;
        if (!buffer.put(sequence, kind, key, value)) {
            flush();
            if (!buffer.put(sequence, kind, key, value)) {
                throw new IOException("Cannot buffer a record of bucket directory " + pathFactory.bucketDir()
                        + ": it is larger than the whole write buffer; increase 'write-buffer-size'");
            }
        }
    }

    /**
     * Writes the buffered records, merged per key, as level-0 files (with input changelog, first all
     * of them unmerged as changelog files), then lets compaction react, waiting for it while the
     * bucket has more sorted runs than the stop trigger. If writing fails, the files of this flush are
     * deleted and the buffer keeps its records.
     */
    public void flush() throws IOException {
        flush(true);
    }

    /**
     * {@link #flush()}; with {@code waitAtStopTrigger} false (a commit's flush, which holds the
     * checkpoint barrier) a bucket above the stop trigger does not wait here: its next write waits
     * instead, so compaction back-pressures the input, never the barrier.
     */
    private void flush(boolean waitAtStopTrigger) throws IOException {
        if (buffer.isEmpty()) {
            return;
        }
        List<DataFileMeta> changelog = inputChangelog
                ? writeAll(buffer.sortedReader(), writers.newRollingChangelogWriter(0))
                : List.of();
        List<DataFileMeta> files;
        try {
            files = writeAll(buffer.mergedReaderReusingObjects(mergeFunctions.create()),
                    writers.newRollingWriter(0, FileSource.APPEND));
        } catch (IOException | RuntimeException e) {
            for (DataFileMeta f : changelog) {
                fileIO.deleteQuietly(pathFactory.toPath(f.fileName()));
            }
            throw e;
        }
        buffer.clear();
        newChangelogFiles.addAll(changelog);
        newFiles.addAll(files);
        for (DataFileMeta f : files) {
            compactions.addNewFile(f);
        }
        if (!writeOnly) {
            collect(poll());
            compactions.triggerCompaction();
            if (waitAtStopTrigger) {
                waitBelowStopTrigger();
            } else {
                waitBeforeNextWrite = compactions.shouldWaitForLatestCompaction();
            }
        }
    }

    /** Waits for compaction while the bucket has more sorted runs than the stop trigger. */
    private void waitBelowStopTrigger() throws IOException {
        waitBeforeNextWrite = false;
        if (!compactions.shouldWaitForLatestCompaction()) {
            return;
        }
        long waitStarted = System.nanoTime();
        while (compactions.shouldWaitForLatestCompaction()) {
            collect(await());
            compactions.triggerCompaction();
        }
        compactions.waitedForCompaction(System.nanoTime() - waitStarted);
    }

    /** Writes every record of {@code records} with {@code writer}; on failure deletes what it wrote. */
    private static List<DataFileMeta> writeAll(RecordReader<KeyValue> records, RollingKeyValueFileWriter writer)
            throws IOException {
        try (RecordReader<KeyValue> reader = records) {
            RecordIterator<KeyValue> batch;
            while ((batch = reader.readBatch()) != null) {
                KeyValue kv;
                while ((kv = batch.next()) != null) {
                    writer.write(kv);
                }
                batch.releaseBatch();
            }
            return writer.close();
        } catch (IOException | RuntimeException e) {
            writer.abort();
            throw e;
        }
    }

    /** Compacts the bucket now (after flushing); a full compaction leaves one run on the last level. */
    public void compact(boolean fullCompaction) throws IOException {
        flush();
        collect(await());
        if (fullCompaction) {
            compactions.triggerFullCompaction();
        } else {
            compactions.triggerCompaction();
        }
    }

    /**
     * The increments since the last call: new level-0 and changelog files, finished compactions and
     * their changelog. With {@link LevelZeroAtCommit} (unless {@code write-only}), level 0 is first
     * moved up when due: waiting until it is empty, or starting the compaction if none is running.
     * Otherwise a compaction still running is left running (its result travels with a later call)
     * unless {@code waitCompaction}; even above the stop trigger the commit does not wait, the next
     * write does.
     */
    public Increment prepareCommit(boolean waitCompaction) throws IOException {
        flush(waitCompaction);
        boolean due = levelZeroAtCommit != null && !writeOnly
                && ++commitsSinceLevelZeroCompaction >= levelZeroAtCommit.everyCommits();
        if (due && levelZeroAtCommit.waits()) {
            collect(await());
            while (!compactions.levels().level0Files().isEmpty()) {
                compactions.triggerLevelZeroCompaction();
                collect(await());
            }
            commitsSinceLevelZeroCompaction = 0;
        } else {
            collect(waitCompaction ? await() : poll());
            if (due && !compactions.compactNotCompleted()) {
                if (!compactions.levels().level0Files().isEmpty()) {
                    compactions.triggerLevelZeroCompaction();
                }
                commitsSinceLevelZeroCompaction = 0;
            }
        }
        return takeIncrements();
    }

    /**
     * Finishes this writer for a successor that takes the bucket over (e.g. after the table's schema
     * changed): flushes and waits for the running compaction, starting none, so that
     * {@link #liveFiles()}, {@link #nextSequenceNumber()} and {@link #deletionVectors()} are final, and
     * gives up the files not handed out yet, which the successor adopts ({@link #adopt}) and hands out
     * with its next commit. Closing this writer afterwards deletes nothing.
     */
    public Pending handOver() throws IOException {
        flush();
        collect(await());
        Pending pending = new Pending(List.copyOf(newFiles), List.copyOf(newChangelogFiles), List.copyOf(compactBefore),
                List.copyOf(compactAfter), List.copyOf(compactChangelog), commitsSinceLevelZeroCompaction);
        newFiles.clear();
        newChangelogFiles.clear();
        compactBefore.clear();
        compactAfter.clear();
        compactChangelog.clear();
        return pending;
    }

    /** Takes on the files a predecessor had not handed out ({@link #handOver}), before anything is written. */
    public void adopt(Pending pending) {
        newFiles.addAll(pending.newFiles());
        newChangelogFiles.addAll(pending.newChangelogFiles());
        compactBefore.addAll(pending.compactBefore());
        compactAfter.addAll(pending.compactAfter());
        compactChangelog.addAll(pending.compactChangelog());
        commitsSinceLevelZeroCompaction = pending.commitsSinceLevelZeroCompaction();
    }

    /** Files a writer wrote or compacted since its last commit, not handed out yet. */
    public record Pending(List<DataFileMeta> newFiles, List<DataFileMeta> newChangelogFiles,
            List<DataFileMeta> compactBefore, List<DataFileMeta> compactAfter, List<DataFileMeta> compactChangelog,
            int commitsSinceLevelZeroCompaction) {}

    /** The bucket's deletion vectors, or null for a table without them. */
    public BucketDeletionVectors deletionVectors() {
        return deletionVectors;
    }

    private Increment takeIncrements() throws IOException {
        BucketDeletionVectors.IndexChange index = deletionVectors == null
                ? BucketDeletionVectors.IndexChange.NONE : deletionVectors.writeIfChanged();
        Increment out = new Increment(new DataIncrement(newFiles, List.of(), newChangelogFiles, List.of(), List.of()),
                new CompactIncrement(compactBefore, compactAfter, compactChangelog, index.newFiles(),
                        index.deletedFiles()));
        newFiles.clear();
        newChangelogFiles.clear();
        compactBefore.clear();
        compactAfter.clear();
        compactChangelog.clear();
        return out;
    }

    /** What a writer hands to the committer for its bucket. */
    public record Increment(DataIncrement data, CompactIncrement compact) {}

    private Optional<CompactResult> poll() throws IOException {
        try {
            return compactions.pollCompactionResult();
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException("Cannot compact bucket directory " + pathFactory.bucketDir() + ": " + e.getMessage(), e);
        }
    }

    private Optional<CompactResult> await() throws IOException {
        try {
            return compactions.awaitCompactionResult();
        } catch (IOException | RuntimeException e) {
            throw e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("Interrupted while waiting for the compaction of " + pathFactory.bucketDir(), e);
        } catch (Exception e) {
            throw new IOException("Cannot compact bucket directory " + pathFactory.bucketDir() + ": " + e.getMessage(), e);
        }
    }

    private void collect(Optional<CompactResult> result) {
        if (result.isEmpty()) {
            return;
        }
        Set<String> afterNames = new HashSet<>();
        result.get().after().forEach(f -> afterNames.add(f.fileName()));
        for (DataFileMeta f : result.get().before()) {
            // Output of an earlier, uncommitted compaction compacted again never reaches a snapshot.
            // Its file may go, unless it is still needed: an upgrade of a live input keeps its name.
            if (removeByIdentity(compactAfter, f) != null) {
                if (!afterNames.contains(f.fileName()) && !containsName(compactBefore, f.fileName())
                        && !containsName(newFiles, f.fileName())) {
                    fileIO.deleteQuietly(pathFactory.toPath(f.fileName()));
                }
            } else {
                compactBefore.add(f);
            }
        }
        compactAfter.addAll(result.get().after());
        compactChangelog.addAll(result.get().changelog());
    }

    private static boolean containsName(List<DataFileMeta> files, String name) {
        for (DataFileMeta f : files) {
            if (f.fileName().equals(name)) {
                return true;
            }
        }
        return false;
    }

    private static DataFileMeta removeByIdentity(List<DataFileMeta> files, DataFileMeta file) {
        for (int i = 0; i < files.size(); i++) {
            DataFileMeta f = files.get(i);
            if (f.fileName().equals(file.fileName()) && f.level() == file.level()) {
                return files.remove(i);
            }
        }
        return null;
    }

    /** The bucket's compactions (writer thread only). */
    public MergeTreeCompactManager compactions() {
        return compactions;
    }

    /** Stops compaction, drops buffered records and deletes files (data and changelog) no commit will reference. */
    @Override
    public void close() {
        compactions.close();
        try {
            buffer.close();
        } catch (IOException ignored) {
            // temp spill files are best effort
        }
        Set<String> inputs = new HashSet<>();
        compactBefore.forEach(f -> inputs.add(f.fileName()));
        for (DataFileMeta f : newFiles) {
            fileIO.deleteQuietly(pathFactory.toPath(f.fileName()));
        }
        for (DataFileMeta f : newChangelogFiles) {
            fileIO.deleteQuietly(pathFactory.toPath(f.fileName()));
        }
        for (DataFileMeta f : compactAfter) {
            if (!inputs.contains(f.fileName())) {
                fileIO.deleteQuietly(pathFactory.toPath(f.fileName()));
            }
        }
        for (DataFileMeta f : compactChangelog) {
            fileIO.deleteQuietly(pathFactory.toPath(f.fileName()));
        }
        compactChangelog.clear();
        newFiles.clear();
        newChangelogFiles.clear();
        compactBefore.clear();
        compactAfter.clear();
    }
}
