package dev.streamhouse.storage.table;

import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.fs.FileStatus;
import dev.streamhouse.storage.fs.Path;
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
 * data directories (every other top-level directory: partitions and {@code bucket-<b>}). Metadata and
 * hints are never touched: {@code snapshot/}, {@code schema/}, {@code tag/}, {@code consumer/},
 * {@code changelog/} and {@code branch/} are skipped, as are files directly in the table directory and
 * partitions' {@code _SUCCESS} files. Directories are left in place (a writer may be about to write
 * into an empty one).
 *
 * <p>Safety against concurrent writers rests on {@code olderThanMillis}: a file a running writer or an
 * in-flight commit still holds is younger than that (Paimon's default and ours: one day). In addition
 * the candidates are listed <em>before</em> the metadata is read, and the snapshots are read again
 * until no new one appears, so a commit that lands during the run keeps its files.
 *
 * <p>Errors: {@link IllegalArgumentException} if {@code olderThanMillis} is not in the past;
 * {@link UncheckedIOException} naming the table when listing, reading metadata (a missing manifest a
 * snapshot references stops the run before anything is deleted) or deleting fails.
 */
public final class OrphanFilesCleaner {
    private static final Logger LOG = LoggerFactory.getLogger(OrphanFilesCleaner.class);
    private static final Set<String> METADATA_DIRECTORIES =
            Set.of("snapshot", "schema", "tag", "consumer", "changelog", "branch");
    private static final int MAX_METADATA_PASSES = 10;

    /** What a run removed (or, dry, would remove). */
    public record Result(List<Path> deletedFiles, long deletedBytes) {
        public long deletedFileCount() {
            return deletedFiles.size();
        }
    }

    private final FileStoreTable table;
    private final FileIO fileIO;

    private OrphanFilesCleaner(FileStoreTable table) {
        this.table = table;
        this.fileIO = table.fileIO();
    }

    /** @throws UnsupportedOperationException if the table is not stored in the Paimon format */
    public static OrphanFilesCleaner of(Table table) {
        if (!(table instanceof FileStoreTable)) {
            throw new UnsupportedOperationException("Cannot remove orphan files of table " + table.fullName()
                    + ": it is not a table stored in the Paimon format");
        }
        return new OrphanFilesCleaner((FileStoreTable) table);
    }

    /**
     * Removes (with {@code dryRun}: only reports) the orphan files older than {@code olderThanMillis}.
     */
    public Result clean(long olderThanMillis, boolean dryRun) {
        if (olderThanMillis >= System.currentTimeMillis()) {
            throw new IllegalArgumentException("Cannot remove orphan files of table " + table.fullName()
                    + ": older_than must be in the past, or files being written now that no snapshot references yet "
                    + "would be deleted");
        }
        try {
            List<FileStatus> candidates = new ArrayList<>();
            for (FileStatus s : fileIO.list(table.location())) {
                if (s.isDirectory() && !METADATA_DIRECTORIES.contains(s.path().name())) {
                    walk(s.path(), olderThanMillis, candidates);
                }
            }
            ReferencedFiles referenced = new ReferencedFiles(table);
            int passes = 0;
            while (referenced.collect() > 0 && passes++ < MAX_METADATA_PASSES) {
                // read again: a commit, tag or branch may have appeared while we read
            }
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
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot remove orphan files of table " + table.fullName() + ": "
                    + e.getMessage(), e);
        }
    }

    private void walk(Path dir, long olderThanMillis, List<FileStatus> out) throws IOException {
        for (FileStatus s : fileIO.list(dir)) {
            if (s.isDirectory()) {
                walk(s.path(), olderThanMillis, out);
            } else if (s.modificationTimeMillis() < olderThanMillis
                    && !PartitionMarkDone.SUCCESS_FILE_NAME.equals(s.path().name())) {
                out.add(s);
            }
        }
    }
}
