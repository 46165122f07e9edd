package dev.streamhouse.storage.maintenance.expire;

import dev.streamhouse.storage.fs.CorruptFileException;
import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.index.IndexManifestFile;
import dev.streamhouse.storage.io.TablePaths;
import dev.streamhouse.storage.manifest.ManifestFile;
import dev.streamhouse.storage.manifest.ManifestList;
import dev.streamhouse.storage.operation.SnapshotEntries;
import dev.streamhouse.storage.snapshot.ChangelogManager;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.snapshot.SnapshotManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The table's {@link FileCleanup}: a file that removed metadata referenced is deleted only if no
 * snapshot, tag or long-lived changelog entry still on disk needs it ({@link RetainedFiles}), read
 * after the metadata went. What removed metadata referenced ({@link SnapshotReferences}, tolerant of
 * files already gone): for snapshots their manifest lists, manifests, index manifest and index files,
 * statistics, changelog files and data files (a snapshot whose predecessor stays or was collected too
 * only the files its delta adds: the rest are its predecessor's); for tags the same with their live
 * data files, unless the tag's snapshot file is collected or stays on disk (then the tag needed nothing
 * of its own); for changelog entries what reading their changes needed.
 *
 * <p>Deletion order, as snapshot expiration's: data, changelog and index files first, then manifests,
 * manifest lists and statistics files. A failed delete is logged and skipped (the metadata is gone, the
 * operation has happened) and {@code remove_orphan_files} removes what is left; so does it when reading
 * what remains fails (a damaged table), in which case nothing is deleted. A table with branches, which
 * share its files, keeps them all.
 */
public final class UnusedFileCleanup implements FileCleanup {
    private static final Logger LOG = LoggerFactory.getLogger(UnusedFileCleanup.class);

    private final FileIO fileIO;
    private final SnapshotManager snapshots;
    private final SnapshotReferences references;
    private final RetainedFiles retained;
    private final String tableName;

    /** @param tags the table's tags, as snapshot expiration sees them (an unreadable tag fails) */
    public UnusedFileCleanup(FileIO fileIO, TablePaths paths, SnapshotManager snapshots, ManifestList manifestList,
            ManifestFile manifestFile, IndexManifestFile indexManifestFile, SnapshotEntries entries,
            TaggedSnapshots tags, String tableName) {
        this.fileIO = fileIO;
        this.snapshots = snapshots;
        this.references = new SnapshotReferences(paths, manifestList, manifestFile, indexManifestFile, entries);
        this.retained = new RetainedFiles(fileIO, paths.root(), snapshots, new ChangelogManager(fileIO, paths.root()),
                references, tags);
        this.tableName = tableName;
    }

    @FunctionalInterface
    private interface IoStep {
        void run() throws IOException;
    }

    @Override
    public Run begin(String operation) {
        return new CleanupRun(operation);
    }

    private final class CleanupRun implements Run {
        private final String operation;
        private final FileSet collected = new FileSet();
        private final Map<Long, Snapshot> collectedSnapshots = new HashMap<>();

        CleanupRun(String operation) {
            this.operation = operation;
        }

        @Override
        public void snapshots(List<Snapshot> ascending) throws IOException {
            for (Snapshot s : ascending) {
                boolean predecessorCovered = collectedSnapshots.containsKey(s.id() - 1)
                        || snapshots.snapshotExists(s.id() - 1);
                collect("snapshot " + s.id(), () -> {
                    references.addMetadata(s, collected, false, true);
                    if (predecessorCovered) {
                        references.addAddedDataFiles(s, collected.contentFiles, false);
                    } else {
                        references.addLiveDataFiles(s, collected, false);
                    }
                });
                collectedSnapshots.put(s.id(), s);
            }
        }

        @Override
        public void tags(List<Snapshot> tagged) throws IOException {
            for (Snapshot s : tagged) {
                if (RetainedFiles.sameSnapshot(collectedSnapshots.get(s.id()), s) || staysOnDisk(s)) {
                    continue;
                }
                collect("the tagged snapshot " + s.id(), () -> {
                    references.addMetadata(s, collected, false, true);
                    references.addLiveDataFiles(s, collected, false);
                });
            }
        }

        /** Runs {@code step}; a corrupt file it reads leaves what it names for orphan cleanup. */
        private void collect(String what, IoStep step) throws IOException {
            try {
                step.run();
            } catch (CorruptFileException e) {
                LOG.warn("For the {}: a file of {} of table {} cannot be read, so the files it names are left for "
                        + "remove_orphan_files", operation, what, tableName, e);
            }
        }

        private boolean staysOnDisk(Snapshot tagged) throws IOException {
            try {
                return RetainedFiles.sameSnapshot(snapshots.snapshot(tagged.id()), tagged);
            } catch (FileNotFoundException notThere) {
                return false;
            }
        }

        @Override
        public void changelogEntries(List<Snapshot> entries) throws IOException {
            for (Snapshot entry : entries) {
                collect("the changelog entry " + entry.id(), () -> references.addChangelogEntry(entry, collected, false));
            }
        }

        @Override
        public int finish() {
            if (collected.size() == 0) {
                return 0;
            }
            Optional<FileSet> kept;
            try {
                kept = retained.collect();
            } catch (IOException | RuntimeException e) {
                LOG.warn("After the {}: cannot read what table {} still needs, so none of the {} files the removed "
                        + "metadata used is deleted; remove_orphan_files removes them once the table reads again",
                        operation, tableName, collected.size(), e);
                return 0;
            }
            if (kept.isEmpty()) {
                LOG.info("After the {}: table {} has branches, which share its files, so the files the removed "
                        + "metadata used are left for remove_orphan_files", operation, tableName);
                return 0;
            }
            collected.removeAll(kept.get());
            int[] counts = new int[2];
            deleteAll(collected.contentFiles, counts);
            deleteAll(collected.manifests, counts);
            deleteAll(collected.manifestLists, counts);
            deleteAll(collected.statistics, counts);
            if (counts[1] > 0) {
                LOG.warn("After the {}: {} files of table {} that nothing needs any more could not be deleted; "
                        + "remove_orphan_files removes them", operation, counts[1], tableName);
            }
            LOG.info("After the {}: deleted {} files that only the removed metadata of table {} used", operation,
                    counts[0], tableName);
            return counts[0];
        }

        /** Deletes each file; counts[0] counts deletions, counts[1] failures (logged, not thrown). */
        private void deleteAll(Set<Path> files, int[] counts) {
            for (Path file : files) {
                try {
                    if (fileIO.delete(file, false)) {
                        counts[0]++;
                    }
                } catch (IOException | RuntimeException e) {
                    counts[1]++;
                    LOG.warn("After the {}: cannot delete {} of table {}, which nothing needs any more; it is left "
                            + "for remove_orphan_files", operation, file, tableName, e);
                }
            }
        }
    }
}
