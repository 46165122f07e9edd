package dev.streamhouse.storage.testutils;

import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.index.IndexManifestEntry;
import dev.streamhouse.storage.maintenance.orphan.TableOrphanFiles;
import dev.streamhouse.storage.manifest.ManifestEntry;
import dev.streamhouse.storage.manifest.ManifestFileMeta;
import dev.streamhouse.storage.operation.ManifestFilter;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.table.FileStoreTable;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Checks of a table after failures, on the local file system: every file a retained snapshot needs
 * exists, and orphan removal ({@link TableOrphanFiles}, dry run) finds exactly the files that no
 * snapshot references.
 */
public final class RetainedSnapshots {
    private RetainedSnapshots() {}

    /** The retained snapshots, oldest first. */
    public static List<Snapshot> all(FileStoreTable table) throws IOException {
        List<Snapshot> out = new ArrayList<>();
        Long earliest = table.snapshotManager().earliestSnapshotId();
        if (earliest == null) {
            return out;
        }
        Iterator<Snapshot> it = table.snapshotManager().snapshotsAscending(earliest,
                table.snapshotManager().latestSnapshotId());
        it.forEachRemaining(out::add);
        return out;
    }

    /**
     * Asserts that each retained snapshot's manifest lists, manifests, live data files (and their
     * extra files), changelog files, index manifest and index files exist.
     *
     * @return how many files were checked
     */
    public static int assertEveryNeededFileExists(FileStoreTable table) throws IOException {
        FileIO io = table.fileIO();
        int checked = 0;
        for (Snapshot s : all(table)) {
            List<Path> needed = new ArrayList<>();
            for (String list : listsOf(s)) {
                needed.add(new Path(table.paths().manifestDir(), list));
                for (ManifestFileMeta m : table.manifestList().read(list, null)) {
                    needed.add(new Path(table.paths().manifestDir(), m.fileName()));
                }
            }
            List<ManifestEntry> files = new ArrayList<>(table.snapshotEntries().liveEntries(s, ManifestFilter.ALL));
            files.addAll(table.snapshotEntries().changelogEntries(s, ManifestFilter.ALL));
            for (ManifestEntry e : files) {
                needed.add(table.paths().dataFile(e.partition(), e.bucket(), e.file().fileName()));
                for (String extra : e.file().extraFiles()) {
                    needed.add(table.paths().dataFile(e.partition(), e.bucket(), extra));
                }
            }
            if (s.indexManifest() != null) {
                needed.add(new Path(table.paths().manifestDir(), s.indexManifest()));
                for (IndexManifestEntry e : table.indexManifestFile().read(s.indexManifest())) {
                    needed.add(new Path(table.paths().indexDir(), e.indexFile().fileName()));
                }
            }
            for (Path p : needed) {
                assertThat(io.exists(p)).as("snapshot %s of %s needs %s", s.id(), table.fullName(), p).isTrue();
            }
            checked += needed.size();
        }
        return checked;
    }

    private static List<String> listsOf(Snapshot s) {
        List<String> lists = new ArrayList<>(List.of(s.baseManifestList(), s.deltaManifestList()));
        if (s.changelogManifestList() != null) {
            lists.add(s.changelogManifestList());
        }
        return lists;
    }

    /**
     * Every file under the table directory that is neither metadata ({@code snapshot/}, {@code schema/}
     * and the like) nor referenced by a retained snapshot, computed independently of orphan removal:
     * the files of every entry (ADD or DELETE) of every manifest of a retained snapshot, its manifest
     * lists, index manifest and index files count as referenced, as they do for orphan removal.
     */
    public static Set<String> unreferencedFiles(FileStoreTable table, java.nio.file.Path tableDir) throws IOException {
        Set<String> referenced = new TreeSet<>();
        for (Snapshot s : all(table)) {
            for (String list : listsOf(s)) {
                referenced.add(list);
                for (ManifestFileMeta m : table.manifestList().read(list, null)) {
                    referenced.add(m.fileName());
                    for (ManifestEntry e : table.manifestFile().read(m.fileName(), null)) {
                        referenced.add(e.file().fileName());
                        referenced.addAll(e.file().extraFiles());
                    }
                }
            }
            if (s.indexManifest() != null) {
                referenced.add(s.indexManifest());
                for (IndexManifestEntry e : table.indexManifestFile().read(s.indexManifest())) {
                    referenced.add(e.indexFile().fileName());
                }
            }
        }
        Set<String> unreferenced = new TreeSet<>();
        for (java.nio.file.Path f : storedFiles(tableDir)) {
            if (!referenced.contains(f.getFileName().toString())) {
                unreferenced.add(tableDir.relativize(f).toString());
            }
        }
        return unreferenced;
    }

    /**
     * Asserts that orphan removal (dry run, every file older than the newest one counts) finds exactly
     * {@link #unreferencedFiles} and deletes nothing.
     *
     * @return the orphans found, relative to the table directory
     */
    public static Set<String> assertOrphanRemovalFindsExactlyTheUnreferencedFiles(FileStoreTable table,
            java.nio.file.Path tableDir) throws IOException {
        Set<String> expected = unreferencedFiles(table, tableDir);
        List<java.nio.file.Path> before = storedFiles(tableDir);
        long newest = 0;
        for (java.nio.file.Path f : before) {
            newest = Math.max(newest, Files.getLastModifiedTime(f).toMillis());
        }
        long olderThan = newest + 1;
        while (System.currentTimeMillis() <= olderThan) {
            Thread.onSpinWait(); // the cut-off must lie in the past; at most a few milliseconds
        }
        TableOrphanFiles.Result result = TableOrphanFiles.of(table).clean(olderThan, true);
        Set<String> found = new TreeSet<>();
        String root = new Path(tableDir.toString()).toString();
        for (Path p : result.deletedFiles()) {
            String s = p.toString();
            found.add(s.startsWith(root) ? s.substring(root.length() + 1) : s);
        }
        assertThat(found).as("orphan files of %s found by a dry run", table.fullName()).isEqualTo(expected);
        assertThat(storedFiles(tableDir)).as("a dry run deletes nothing").isEqualTo(before);
        return found;
    }

    /** Regular files in the directories orphan removal searches: everything but the metadata ones. */
    private static List<java.nio.file.Path> storedFiles(java.nio.file.Path tableDir) throws IOException {
        Set<String> metadata = Set.of("snapshot", "schema", "tag", "consumer", "changelog", "branch",
                "tag-success-file");
        try (Stream<java.nio.file.Path> walk = Files.walk(tableDir)) {
            return walk.filter(Files::isRegularFile)
                    .filter(p -> !p.getParent().equals(tableDir))
                    .filter(p -> !metadata.contains(tableDir.relativize(p).getName(0).toString()))
                    .filter(p -> !p.getFileName().toString().equals("_SUCCESS"))
                    .filter(p -> !p.getFileName().toString().startsWith("."))
                    .sorted()
                    .toList();
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }
}
