package dev.streamhouse.storage.maintenance.orphan;

import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.fs.FileStatus;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.maintenance.partition.TablePartitionMarkDone;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.table.Table;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Removes a table's orphan files, as {@code CALL sys.remove_orphan_files} does: files under the table
 * directory that no snapshot, tag or {@code changelog/} entry (of the table or one of its branches)
 * references ({@link ReferencedFiles}), and that were last modified before {@code olderThanMillis}.
 * Orphans are left behind by failed or aborted writes and commits, and by crashed jobs.
 *
 * <p>Only these places are searched: {@code manifest/}, {@code index/}, {@code statistics/} and the
 * data directories (the partitions, {@code <first partition key>=<value>/}, of a partitioned table;
 * {@code bucket-<b>/} of an unpartitioned one). Nothing else is ever touched: not the metadata and hints
 * ({@code snapshot/}, {@code schema/}, {@code tag/}, {@code consumer/}, {@code changelog/},
 * {@code branch/}), not {@code tag-success-file/}, not files directly in the table directory, not other
 * directories someone put there, and not partitions' {@code _SUCCESS} files. Directories are left in place (a writer may be about to write
 * into an empty one).
 *
 * <p>Safety against concurrent writers rests on {@code olderThanMillis}: a file a running writer or an
 * in-flight commit still holds is younger than that (Paimon's default and ours: one day). In addition
 * the candidates are listed <em>before</em> the metadata is read, and the snapshots are read again
 * until no new one appears, so a commit that lands during the run keeps its files.
 *
 * <p>{@link #clean} does it all in the caller; a distributed run spreads the {@link #searchedDirectories()
 * searched directories} over workers, each of which cleans its directories by a {@link DirectoryRun}
 * and reads the metadata itself (once per worker, then only what is new).
 *
 * <p>Errors: {@link IllegalArgumentException} if {@code olderThanMillis} is not in the past;
 * {@link UncheckedIOException} naming the table when listing, reading metadata (a missing manifest a
 * snapshot references stops the run before anything is deleted) or deleting fails.
 */
public final class TableOrphanFiles {
    private static final Logger LOG = LoggerFactory.getLogger(TableOrphanFiles.class);
    /** Directories of files that snapshots reference, besides the data directories. */
    private static final Set<String> FILE_DIRECTORIES = Set.of("manifest", "index", "statistics");
    private static final int MAX_METADATA_PASSES = 10;

    /** What a run removed (or, dry, would remove). */
    public record Result(List<Path> deletedFiles, long deletedBytes) {
        public long deletedFileCount() {
            return deletedFiles.size();
        }
    }

    private final FileStoreTable table;
    private final FileIO fileIO;

    private TableOrphanFiles(FileStoreTable table) {
        this.table = table;
        this.fileIO = table.fileIO();
    }

    /** @throws UnsupportedOperationException if the table is not stored in the Paimon format */
    public static TableOrphanFiles of(Table table) {
        if (!(table instanceof FileStoreTable)) {
            throw new UnsupportedOperationException("Cannot remove orphan files of table " + table.fullName()
                    + ": it is not a table stored in the Paimon format");
        }
        return new TableOrphanFiles((FileStoreTable) table);
    }

    /**
     * Removes (with {@code dryRun}: only reports) the orphan files older than {@code olderThanMillis},
     * in the caller: every searched directory is listed first, then the metadata is read once.
     */
    public Result clean(long olderThanMillis, boolean dryRun) {
        checkOlderThan(olderThanMillis);
        try {
            List<FileStatus> candidates = new ArrayList<>();
            for (String dir : searchedDirectories()) {
                walk(new Path(table.location(), dir), olderThanMillis, candidates);
            }
            ReferencedFiles referenced = new ReferencedFiles(table);
            collectUntilStable(referenced);
            return removeUnreferenced(candidates, referenced, dryRun);
        } catch (IOException e) {
            throw failure(e);
        }
    }

    /**
     * The directories directly in the table directory that orphan removal searches (recursively), by
     * name: {@code manifest}, {@code index}, {@code statistics} and the data directories (partitions
     * of the first partition field, or {@code bucket-<b>}); each is a unit of work of a distributed
     * run ({@link DirectoryRun}). Sorted; one listing of the table directory.
     */
    public List<String> searchedDirectories() {
        try {
            List<String> out = new ArrayList<>();
            for (FileStatus s : fileIO.list(table.location())) {
                if (s.isDirectory() && isSearched(s.path().name())) {
                    out.add(s.path().name());
                }
            }
            out.sort(null);
            return out;
        } catch (IOException e) {
            throw failure(e);
        }
    }

    /**
     * A run that cleans searched directories one at a time, e.g. in one subtask of a distributed run.
     * Each {@link DirectoryRun#clean} lists its directory's candidates <em>before</em> it reads the
     * metadata: the first call reads all of it, later calls only what appeared since (new snapshots,
     * tags, changelog entries, branches), so every directory gets the same guarantee as {@link #clean}.
     *
     * @throws IllegalArgumentException if {@code olderThanMillis} is not in the past
     */
    public DirectoryRun newDirectoryRun(long olderThanMillis, boolean dryRun) {
        checkOlderThan(olderThanMillis);
        return new DirectoryRun(olderThanMillis, dryRun);
    }

    /** See {@link #newDirectoryRun}. Not thread-safe. */
    public final class DirectoryRun {
        private final long olderThanMillis;
        private final boolean dryRun;
        private final ReferencedFiles referenced = new ReferencedFiles(table);

        private DirectoryRun(long olderThanMillis, boolean dryRun) {
            this.olderThanMillis = olderThanMillis;
            this.dryRun = dryRun;
        }

        /**
         * Removes (dry: reports) the orphans under {@code directory}, one of {@link #searchedDirectories()}.
         *
         * @throws IllegalArgumentException if {@code directory} is not a name orphan removal searches
         */
        public Result clean(String directory) {
            if (directory.contains("/") || !isSearched(directory)) {
                throw new IllegalArgumentException("Cannot remove orphan files of table " + table.fullName()
                        + " in directory '" + directory + "': only the data (partition or bucket), manifest, index "
                        + "and statistics directories directly in the table directory are searched");
            }
            try {
                List<FileStatus> candidates = new ArrayList<>();
                walk(new Path(table.location(), directory), olderThanMillis, candidates);
                collectUntilStable(referenced);
                return removeUnreferenced(candidates, referenced, dryRun);
            } catch (IOException e) {
                throw failure(e);
            }
        }
    }

    /** Whether orphan removal searches the directory of this name directly in the table directory. */
    private boolean isSearched(String name) {
        if (FILE_DIRECTORIES.contains(name)) {
            return true;
        }
        List<String> partitionKeys = table.partitionKeys();
        return partitionKeys.isEmpty() ? name.startsWith("bucket-") : name.startsWith(partitionKeys.get(0) + "=");
    }

    private void checkOlderThan(long olderThanMillis) {
        if (olderThanMillis >= System.currentTimeMillis()) {
            throw new IllegalArgumentException("Cannot remove orphan files of table " + table.fullName()
                    + ": older_than must be in the past, or files being written now that no snapshot references yet "
                    + "would be deleted");
        }
    }

    /** Reads the metadata not read yet, again until no new one appears (bounded). */
    private static void collectUntilStable(ReferencedFiles referenced) throws IOException {
        int passes = 0;
        while (referenced.collect() > 0 && passes++ < MAX_METADATA_PASSES) {
            // read again: a commit, tag or branch may have appeared while we read
        }
    }

    private Result removeUnreferenced(List<FileStatus> candidates, ReferencedFiles referenced, boolean dryRun)
            throws IOException {
        List<Path> deleted = new ArrayList<>();
        long bytes = 0;
        for (FileStatus s : candidates) {
            if (referenced.names().contains(s.path().name())) {
                continue;
            }
            if (!dryRun) {
                fileIO.delete(s.path(), false);
            }
            LOG.info("{} orphan file {} of table {} ({} bytes, modified at {})", dryRun ? "Would remove" : "Removed",
                    s.path(), table.fullName(), s.length(), s.modificationTimeMillis());
            deleted.add(s.path());
            bytes += s.length();
        }
        return new Result(deleted, bytes);
    }

    private UncheckedIOException failure(IOException e) {
        return new UncheckedIOException("Cannot remove orphan files of table " + table.fullName() + ": "
                + e.getMessage(), e);
    }

    private void walk(Path dir, long olderThanMillis, List<FileStatus> out) throws IOException {
        for (FileStatus s : fileIO.list(dir)) {
            if (s.isDirectory()) {
                walk(s.path(), olderThanMillis, out);
            } else if (s.modificationTimeMillis() < olderThanMillis
                    && !TablePartitionMarkDone.SUCCESS_FILE_NAME.equals(s.path().name())) {
                out.add(s);
            }
        }
    }
}
