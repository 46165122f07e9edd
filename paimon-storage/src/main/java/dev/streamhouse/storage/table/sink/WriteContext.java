package dev.streamhouse.storage.table.sink;

import dev.streamhouse.storage.bucket.dynamic.AssignerRouting;

import dev.streamhouse.storage.data.InternalRow;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * How one of several parallel writers of a job writes a table. Engines that run writers in parallel
 * pass one to {@code Table.newWrite(WriteContext)}; a single writer uses {@link #single()}.
 *
 * <ul>
 *   <li>{@link #assigner()}: for a dynamic-bucket primary-key table ({@code bucket = -1}), which
 *       dynamic-bucket assigner this writer is. The engine must route to this writer exactly the rows
 *       {@link AssignerRouting#receives} accepts; the writer then opens only the buckets the routing
 *       owns, so no two writers of the job write one bucket. Ignored by other tables.
 *   <li>{@link #tempDirectories()}: local directories for the write's temporary files (write-buffer
 *       spills, local lookup files), e.g. the engine's own temp directories; none means
 *       {@code java.io.tmpdir}.
 *   <li>{@link #predecessor()}: an earlier write of the same table whose buckets this one continues
 *       ({@link #succeeding}).
 *   <li>{@link #ignoresPreviousFiles()}: start every partition empty instead of from the latest
 *       snapshot's files and hash index, for writes whose commit replaces the partitions they touch
 *       (INSERT OVERWRITE). Never use it for a plain commit: new files would not be merged with the
 *       existing ones.
 * </ul>
 */
public final class WriteContext {
    private static final WriteContext SINGLE = new WriteContext(AssignerRouting.single(), false, List.of(), null,
            false);

    private final AssignerRouting assigner;
    private final boolean ignorePreviousFiles;
    private final List<Path> tempDirectories;
    private final TableWrite predecessor;
    private final boolean bucketsAssigned;

    private WriteContext(AssignerRouting assigner, boolean ignorePreviousFiles, List<Path> tempDirectories,
            TableWrite predecessor, boolean bucketsAssigned) {
        this.assigner = Objects.requireNonNull(assigner, "assigner");
        this.ignorePreviousFiles = ignorePreviousFiles;
        this.tempDirectories = List.copyOf(tempDirectories);
        this.predecessor = predecessor;
        this.bucketsAssigned = bucketsAssigned;
    }

    /** The only writer of the job: assigns every key and continues from the latest snapshot. */
    public static WriteContext single() {
        return SINGLE;
    }

    /** This context for the dynamic-bucket assigner {@code assigner}. */
    public WriteContext withAssigner(AssignerRouting assigner) {
        return new WriteContext(assigner, ignorePreviousFiles, tempDirectories, predecessor, bucketsAssigned);
    }

    /** This context, starting every partition empty (for INSERT OVERWRITE). */
    public WriteContext ignoringPreviousFiles() {
        return new WriteContext(assigner, true, tempDirectories, predecessor, bucketsAssigned);
    }

    /** This context, with temporary files in {@code directories} (one is picked per write). */
    public WriteContext withTempDirectories(List<Path> directories) {
        return new WriteContext(assigner, ignorePreviousFiles, directories, predecessor, bucketsAssigned);
    }

    /**
     * This context for a write that continues the buckets of {@code predecessor}, an earlier write of
     * the same table in this job (e.g. under the table's previous schema): the new write finishes it
     * (flushes its buffers, waits for its compactions) and carries over its files, including those
     * handed out but not committed yet, sequence numbers, deletion vectors and dynamic bucket
     * assignments, where a fresh write would read the latest snapshot and miss the uncommitted ones; the
     * files the predecessor had not handed out yet come out of the new write's next
     * {@code prepareCommit()}. The predecessor is closed and must not be used again. Primary-key tables
     * only so far.
     */
    public WriteContext succeeding(TableWrite predecessor) {
        return new WriteContext(assigner, ignorePreviousFiles, tempDirectories,
                Objects.requireNonNull(predecessor, "predecessor"), bucketsAssigned);
    }

    /**
     * This context for a writer of a dynamic-bucket table whose rows come with their bucket, assigned
     * upstream by {@link TableBucketAssigner}s ({@code Table.newBucketAssigner}): the write takes rows
     * only through {@link TableWrite#write(InternalRow, int)}, writes whatever bucket it is given and
     * maintains those buckets' hash index files. The engine must give each (partition, bucket) exactly
     * one writer. Ignored by other tables.
     */
    public WriteContext withAssignedBuckets() {
        return new WriteContext(assigner, ignorePreviousFiles, tempDirectories, predecessor, true);
    }

    /** Whether rows of a dynamic-bucket table arrive with their bucket ({@link #withAssignedBuckets()}). */
    public boolean bucketsAssigned() {
        return bucketsAssigned;
    }

    /** The write this one continues, or null. */
    public TableWrite predecessor() {
        return predecessor;
    }

    public List<Path> tempDirectories() {
        return tempDirectories;
    }

    /**
     * The directory for the temporary files of one write: one of {@link #tempDirectories()}, picked at
     * random to spread writers over them, or {@code java.io.tmpdir} if there are none.
     */
    public Path tempDirectory() {
        if (tempDirectories.isEmpty()) {
            return Path.of(System.getProperty("java.io.tmpdir"));
        }
        return tempDirectories.get(java.util.concurrent.ThreadLocalRandom.current().nextInt(tempDirectories.size()));
    }

    public AssignerRouting assigner() {
        return assigner;
    }

    public boolean ignoresPreviousFiles() {
        return ignorePreviousFiles;
    }

    @Override
    public String toString() {
        return "WriteContext{" + (bucketsAssigned ? "buckets assigned upstream" : assigner) + (ignorePreviousFiles ? ", ignoring previous files" : "")
                + (tempDirectories.isEmpty() ? "" : ", temp directories " + tempDirectories) + "}";
    }
}
