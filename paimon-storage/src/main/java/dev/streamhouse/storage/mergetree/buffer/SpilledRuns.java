package dev.streamhouse.storage.mergetree.buffer;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The sorted runs one write buffer spilled to local disk, the disk budget
 * ({@code write-buffer-spill.max-disk-size}) and the merge passes that keep the number of files open
 * at once within {@code local-sort.max-num-file-handles}. Not thread-safe.
 */
final class SpilledRuns {
    private final Path directory;
    private final long maxDiskBytes;
    private final int maxFileHandles;
    private final Supplier<SerializedKeyComparator> comparators;
    private final List<SpilledRun> runs = new ArrayList<>();
    private long diskBytes;
    private long records;
    private int mergePasses;

    SpilledRuns(Path directory, long maxDiskBytes, int maxFileHandles, Supplier<SerializedKeyComparator> comparators) {
        this.directory = directory;
        this.maxDiskBytes = maxDiskBytes;
        this.maxFileHandles = maxFileHandles;
        this.comparators = comparators;
    }

    int runCount() {
        return runs.size();
    }

    long diskBytes() {
        return diskBytes;
    }

    long records() {
        return records;
    }

    /** Merge passes run so far (visible for tests). */
    int mergePasses() {
        return mergePasses;
    }

    /** Whether spilling {@code recordBytes} more stays within the disk budget even if incompressible. */
    boolean canSpill(long recordBytes) {
        return diskBytes + SpilledRunWriter.maxFileBytes(recordBytes) <= maxDiskBytes;
    }

    /** Sorts {@code run} and writes it as a new spilled run; the caller then releases its pages. */
    void spill(InMemoryRun run) throws IOException {
        run.sort();
        SpilledRunWriter writer = SpilledRunWriter.create(directory);
        try {
            RecordCursor cursor = run.sortedCursor();
            while (cursor.advance()) {
                writer.write(cursor.buffer(), cursor.offset());
            }
        } catch (RuntimeException e) {
            writer.abort();
            throw e;
        }
        add(writer.finish());
    }

    private void add(SpilledRun run) {
        runs.add(run);
        diskBytes += run.fileBytes();
        records += run.records();
    }

    /**
     * Cursors over all runs, after merging runs in passes (oldest first, no merge function applied)
     * until at most {@code maxFileHandles} remain. The caller closes the cursors.
     */
    List<RecordCursor> openAll() throws IOException {
        while (runs.size() > maxFileHandles) {
            int width = Math.min(maxFileHandles, runs.size() - maxFileHandles + 1);
            mergeOldest(width);
        }
        List<RecordCursor> cursors = new ArrayList<>(runs.size());
        try {
            for (SpilledRun run : runs) {
                cursors.add(SpilledRunReader.open(run));
            }
        } catch (IOException e) {
            closeQuietly(cursors);
            throw e;
        }
        return cursors;
    }

    private void mergeOldest(int width) throws IOException {
        List<SpilledRun> inputs = new ArrayList<>(runs.subList(0, width));
        List<RecordCursor> readers = new ArrayList<>(width);
        SpilledRunWriter writer = null;
        try {
            for (SpilledRun run : inputs) {
                readers.add(SpilledRunReader.open(run));
            }
            writer = SpilledRunWriter.create(directory);
            MergingCursor merged = new MergingCursor(readers, comparators.get());
            while (merged.advance()) {
                writer.write(merged.buffer(), merged.offset());
            }
            SpilledRun output = writer.finish();
            writer = null;
            for (SpilledRun run : inputs) {
                runs.remove(run);
                diskBytes -= run.fileBytes();
                records -= run.records();
            }
            add(output);
            mergePasses++;
        } catch (IOException | RuntimeException e) {
            if (writer != null) {
                writer.abort();
            }
            throw e;
        } finally {
            closeQuietly(readers);
        }
        for (SpilledRun run : inputs) {
            SpillFiles.delete(run.path());
        }
    }

    private static void closeQuietly(List<RecordCursor> cursors) {
        for (RecordCursor cursor : cursors) {
            try {
                cursor.close();
            } catch (IOException e) {
                // Only read; nothing to lose.
            }
        }
    }

    /** Deletes every spill file and forgets the runs. */
    void deleteAll() {
        for (SpilledRun run : runs) {
            SpillFiles.delete(run.path());
        }
        runs.clear();
        diskBytes = 0;
        records = 0;
    }
}
