package dev.streamhouse.storage.table.sink;

import dev.streamhouse.storage.bucket.dynamic.AssignerRouting;

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
 *   <li>{@link #ignoresPreviousFiles()}: start every partition empty instead of from the latest
 *       snapshot's files and hash index, for writes whose commit replaces the partitions they touch
 *       (INSERT OVERWRITE). Never use it for a plain commit: new files would not be merged with the
 *       existing ones.
 * </ul>
 */
public final class WriteContext {
    private static final WriteContext SINGLE = new WriteContext(AssignerRouting.single(), false, List.of());

    private final AssignerRouting assigner;
    private final boolean ignorePreviousFiles;
    private final List<Path> tempDirectories;

    private WriteContext(AssignerRouting assigner, boolean ignorePreviousFiles, List<Path> tempDirectories) {
        this.assigner = Objects.requireNonNull(assigner, "assigner");
        this.ignorePreviousFiles = ignorePreviousFiles;
        this.tempDirectories = List.copyOf(tempDirectories);
    }

    /** The only writer of the job: assigns every key and continues from the latest snapshot. */
    public static WriteContext single() {
        return SINGLE;
    }

    /** This context for the dynamic-bucket assigner {@code assigner}. */
    public WriteContext withAssigner(AssignerRouting assigner) {
        return new WriteContext(assigner, ignorePreviousFiles, tempDirectories);
    }

    /** This context, starting every partition empty (for INSERT OVERWRITE). */
    public WriteContext ignoringPreviousFiles() {
        return new WriteContext(assigner, true, tempDirectories);
    }

    /** This context, with temporary files in {@code directories} (one is picked per write). */
    public WriteContext withTempDirectories(List<Path> directories) {
        return new WriteContext(assigner, ignorePreviousFiles, directories);
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
        return "WriteContext{" + assigner + (ignorePreviousFiles ? ", ignoring previous files" : "")
                + (tempDirectories.isEmpty() ? "" : ", temp directories " + tempDirectories) + "}";
    }
}
