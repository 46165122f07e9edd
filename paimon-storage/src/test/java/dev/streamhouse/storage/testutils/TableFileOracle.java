package dev.streamhouse.storage.testutils;

import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.fs.FileStatus;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.index.IndexManifestEntry;
import dev.streamhouse.storage.maintenance.tag.TagManager;
import dev.streamhouse.storage.manifest.FileKind;
import dev.streamhouse.storage.manifest.ManifestEntry;
import dev.streamhouse.storage.manifest.ManifestFileMeta;
import dev.streamhouse.storage.operation.ManifestFilter;
import dev.streamhouse.storage.snapshot.ChangelogManager;
import dev.streamhouse.storage.snapshot.CommitKind;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.snapshot.SnapshotManager;
import dev.streamhouse.storage.table.FileStoreTable;

import java.io.IOException;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Which files a table has on disk and which ones its metadata needs, relative to the table directory,
 * computed the plain way (every snapshot, tag and changelog entry read in full) for tests that check
 * that an operation left exactly the needed files: nothing needed gone, nothing unneeded left.
 *
 * <p>Needed: for every snapshot from the earliest one and every tag, its manifest lists, their
 * manifests, its changelog files, its live data files, its index manifest and index files and its
 * statistics file; for every long-lived changelog entry from the earliest one, its changelog manifest
 * list, manifests and files, or (APPEND / OVERWRITE entries without changelog files) its delta manifest
 * list, manifests and the data files the delta adds, plus its index manifest and files.
 */
public final class TableFileOracle {
    private static final Set<String> METADATA = Set.of("snapshot", "schema", "tag", "consumer", "changelog",
            "branch", "tag-success-file");

    private TableFileOracle() {}

    /** The files in the data, manifest, index and statistics directories (hidden files and _SUCCESS aside). */
    public static Set<String> filesOnDisk(FileStoreTable table) throws IOException {
        Set<String> out = new TreeSet<>();
        FileIO io = table.fileIO();
        for (FileStatus top : io.list(table.location())) {
            if (top.isDirectory() && !METADATA.contains(top.path().name())) {
                walk(io, top.path(), top.path().name(), out);
            }
        }
        return out;
    }

    private static void walk(FileIO io, Path dir, String relative, Set<String> out) throws IOException {
        for (FileStatus s : io.list(dir)) {
            String name = s.path().name();
            if (s.isDirectory()) {
                walk(io, s.path(), relative + "/" + name, out);
            } else if (!name.startsWith(".") && !name.equals("_SUCCESS")) {
                out.add(relative + "/" + name);
            }
        }
    }

    /** The files the table's snapshots, tags and long-lived changelog entries need. */
    public static Set<String> neededFiles(FileStoreTable table) throws IOException {
        Set<String> out = new TreeSet<>();
        SnapshotManager snapshots = table.snapshotManager();
        Long earliest = snapshots.earliestSnapshotId();
        for (Long id : snapshots.listSnapshotIds()) {
            if (earliest != null && id >= earliest) {
                addSnapshot(table, snapshots.snapshot(id), out);
            }
        }
        for (TagManager.NamedTag t : new TagManager(table.fileIO(), table.location()).tags()) {
            addSnapshot(table, t.tag().snapshot(), out);
        }
        ChangelogManager changelogs = new ChangelogManager(table.fileIO(), table.location());
        Long earliestEntry = changelogs.earliestChangelogId();
        for (Long id : changelogs.listChangelogIds()) {
            if (earliestEntry != null && id >= earliestEntry) {
                addChangelogEntry(table, changelogs.changelog(id), out);
            }
        }
        return out;
    }

    /**
     * What the long-lived changelog entries name besides what they need, and {@code remove_orphan_files}
     * therefore keeps: their base and delta manifest lists and, as far as those still exist, the
     * manifests and files named there.
     */
    public static Set<String> namedByChangelogEntries(FileStoreTable table) throws IOException {
        Set<String> out = new TreeSet<>();
        ChangelogManager changelogs = new ChangelogManager(table.fileIO(), table.location());
        for (Long id : changelogs.listChangelogIds()) {
            Snapshot s = changelogs.changelog(id);
            for (String list : List.of(s.baseManifestList(), s.deltaManifestList())) {
                out.add("manifest/" + list);
                if (!table.fileIO().exists(new Path(table.location(), "manifest/" + list))) {
                    continue;
                }
                for (ManifestFileMeta m : table.manifestList().read(list, null)) {
                    out.add("manifest/" + m.fileName());
                    if (table.fileIO().exists(new Path(table.location(), "manifest/" + m.fileName()))) {
                        for (ManifestEntry e : table.manifestFile().read(m.fileName(), m.fileSize())) {
                            addDataFile(table, e, out);
                        }
                    }
                }
            }
        }
        return out;
    }

    private static void addSnapshot(FileStoreTable table, Snapshot s, Set<String> out) throws IOException {
        addList(table, s.baseManifestList(), s.baseManifestListSize(), out);
        addList(table, s.deltaManifestList(), s.deltaManifestListSize(), out);
        if (s.changelogManifestList() != null) {
            addList(table, s.changelogManifestList(), s.changelogManifestListSize(), out);
            for (ManifestEntry e : table.snapshotEntries().changelogEntries(s, ManifestFilter.ALL)) {
                addDataFile(table, e, out);
            }
        }
        for (ManifestEntry e : table.snapshotEntries().liveEntries(s, ManifestFilter.ALL)) {
            addDataFile(table, e, out);
        }
        addIndex(table, s, out);
        if (s.statistics() != null) {
            out.add("statistics/" + s.statistics());
        }
    }

    private static void addChangelogEntry(FileStoreTable table, Snapshot s, Set<String> out) throws IOException {
        if (s.changelogManifestList() != null) {
            addList(table, s.changelogManifestList(), s.changelogManifestListSize(), out);
            for (ManifestEntry e : table.snapshotEntries().changelogEntries(s, ManifestFilter.ALL)) {
                addDataFile(table, e, out);
            }
        } else if (s.commitKind() == CommitKind.APPEND || s.commitKind() == CommitKind.OVERWRITE) {
            addList(table, s.deltaManifestList(), s.deltaManifestListSize(), out);
            for (ManifestEntry e : table.snapshotEntries().deltaEntries(s, ManifestFilter.ALL)) {
                if (e.kind() == FileKind.ADD) {
                    addDataFile(table, e, out);
                }
            }
        }
        addIndex(table, s, out);
    }

    private static void addList(FileStoreTable table, String list, Long size, Set<String> out) throws IOException {
        out.add("manifest/" + list);
        for (ManifestFileMeta m : table.manifestList().read(list, size)) {
            out.add("manifest/" + m.fileName());
        }
    }

    private static void addIndex(FileStoreTable table, Snapshot s, Set<String> out) throws IOException {
        if (s.indexManifest() == null) {
            return;
        }
        out.add("manifest/" + s.indexManifest());
        List<IndexManifestEntry> entries = table.indexManifestFile().read(s.indexManifest());
        for (IndexManifestEntry e : entries) {
            out.add("index/" + e.indexFile().fileName());
        }
    }

    private static void addDataFile(FileStoreTable table, ManifestEntry e, Set<String> out) {
        String dir = table.paths().renderer().render(e.partition()) + "bucket-" + e.bucket() + "/";
        out.add(dir + e.file().fileName());
        for (String extra : e.file().extraFiles()) {
            out.add(dir + extra);
        }
    }
}
