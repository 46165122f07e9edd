package dev.streamhouse.storage.maintenance.orphan;

import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.fs.FileStatus;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.index.IndexManifestEntry;
import dev.streamhouse.storage.maintenance.tag.TagSerializer;
import dev.streamhouse.storage.manifest.ManifestEntry;
import dev.streamhouse.storage.manifest.ManifestFileMeta;
import dev.streamhouse.storage.schema.MetadataJson;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.snapshot.SnapshotSerializer;
import dev.streamhouse.storage.table.FileStoreTable;

import com.fasterxml.jackson.databind.node.ObjectNode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.HashSet;
import java.util.Set;
import java.util.TreeSet;

/**
 * The names of every file that some snapshot, tag or long-lived changelog entry of a table (and of its
 * branches, which share the table's files, docs/format.md §11.2) references: manifest lists, manifests, index
 * manifests, statistics files, data and changelog files (ADD and DELETE entries, and their extra files)
 * and index files. Orphan removal keeps all of them.
 *
 * <p>A snapshot that disappears while it is read was expired meanwhile and is skipped. Any other
 * missing or unreadable metadata file fails the collection ({@link IOException} naming it), so orphan
 * removal deletes nothing it cannot account for; only {@code changelog/} entries may lack manifest
 * lists that changelog expiration already removed. Not thread-safe.
 */
final class ReferencedFiles {
    private static final Logger LOG = LoggerFactory.getLogger(ReferencedFiles.class);

    private final FileStoreTable table;
    private final FileIO fileIO;
    private final Set<String> names = new HashSet<>();
    private final Set<String> readManifests = new HashSet<>();
    private final Set<String> readLists = new HashSet<>();
    private final Set<String> readIndexManifests = new HashSet<>();
    /** Snapshot files already read, by path, so a second pass reads only new ones. */
    private final Set<String> readMetadata = new TreeSet<>();

    ReferencedFiles(FileStoreTable table) {
        this.table = table;
        this.fileIO = table.fileIO();
    }

    Set<String> names() {
        return names;
    }

    /**
     * Adds the files of every snapshot, tag and changelog entry not seen by an earlier call.
     *
     * @return how many metadata files (snapshots, tags, changelog entries) were newly read
     */
    int collect() throws IOException {
        int read = 0;
        for (Path metadataRoot : metadataRoots()) {
            read += collectDirectory(new Path(metadataRoot, "snapshot"), "snapshot-", Kind.SNAPSHOT);
            read += collectDirectory(new Path(metadataRoot, "tag"), "tag-", Kind.TAG);
            read += collectDirectory(new Path(metadataRoot, "changelog"), "changelog-", Kind.CHANGELOG);
        }
        return read;
    }

    private enum Kind { SNAPSHOT, TAG, CHANGELOG }

    /** The table root and every branch directory. */
    private Iterable<Path> metadataRoots() throws IOException {
        Set<Path> roots = new java.util.LinkedHashSet<>();
        roots.add(table.location());
        for (FileStatus s : fileIO.list(new Path(table.location(), "branch"))) {
            if (s.isDirectory() && s.path().name().startsWith("branch-")) {
                roots.add(s.path());
            }
        }
        return roots;
    }

    private int collectDirectory(Path dir, String prefix, Kind kind) throws IOException {
        int read = 0;
        for (FileStatus s : fileIO.list(dir)) {
            String name = s.path().name();
            if (s.isDirectory() || !name.startsWith(prefix) || name.length() == prefix.length()) {
                continue;
            }
            if (kind != Kind.TAG && !name.substring(prefix.length()).chars().allMatch(Character::isDigit)) {
                continue;
            }
            if (!readMetadata.add(s.path().toString())) {
                continue;
            }
            String json;
            try {
                json = fileIO.readUtf8(s.path());
            } catch (FileNotFoundException e) {
                // Expired (or the tag deleted) since the listing: nothing of it needs keeping.
                continue;
            }
            Snapshot snapshot;
            try {
                snapshot = kind == Kind.TAG ? TagSerializer.fromJson(json).snapshot() : SnapshotSerializer.fromJson(json);
            } catch (RuntimeException e) {
                throw new IOException("Cannot remove orphan files of table " + table.fullName() + ": cannot read "
                        + s.path() + " (" + e.getMessage() + "), so the files it references are unknown", e);
            }
            try {
                addSnapshot(snapshot, kind == Kind.CHANGELOG);
            } catch (FileNotFoundException e) {
                if (kind == Kind.SNAPSHOT && !fileIO.exists(s.path())) {
                    continue; // expired while we read its manifests
                }
                throw new IOException("Cannot remove orphan files of table " + table.fullName() + ": " + s.path()
                        + " references a file that is missing (" + e.getMessage() + "); the table needs repair "
                        + "before orphan files can be told apart", e);
            }
            read++;
        }
        return read;
    }

    private void addSnapshot(Snapshot s, boolean changelogEntry) throws IOException {
        addList(s.baseManifestList(), s.baseManifestListSize(), changelogEntry);
        addList(s.deltaManifestList(), s.deltaManifestListSize(), changelogEntry);
        if (s.changelogManifestList() != null) {
            addList(s.changelogManifestList(), s.changelogManifestListSize(), changelogEntry);
        }
        if (s.indexManifest() != null) {
            names.add(s.indexManifest());
            if (readIndexManifests.add(s.indexManifest())) {
                for (IndexManifestEntry e : table.indexManifestFile().read(s.indexManifest())) {
                    names.add(e.indexFile().fileName());
                }
            }
        }
        if (s.statistics() != null) {
            names.add(s.statistics());
        }
    }

    private void addList(String listName, Long size, boolean mayBeGone) throws IOException {
        names.add(listName);
        if (!readLists.add(listName)) {
            return;
        }
        java.util.List<ManifestFileMeta> manifests;
        try {
            manifests = table.manifestList().read(listName, size);
        } catch (FileNotFoundException e) {
            if (mayBeGone) {
                LOG.debug("Manifest list {} of a changelog entry of table {} is gone", listName, table.fullName());
                return;
            }
            throw e;
        }
        for (ManifestFileMeta m : manifests) {
            names.add(m.fileName());
            if (readManifests.add(m.fileName())) {
                java.util.List<ManifestEntry> entries;
                try {
                    entries = table.manifestFile().read(m.fileName(), m.fileSize());
                } catch (FileNotFoundException e) {
                    if (mayBeGone) {
                        continue;
                    }
                    throw e;
                }
                for (ManifestEntry e : entries) {
                    names.add(e.file().fileName());
                    names.addAll(e.file().extraFiles());
                }
            }
        }
    }
}
