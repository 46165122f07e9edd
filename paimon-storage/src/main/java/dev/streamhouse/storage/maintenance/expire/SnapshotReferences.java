package dev.streamhouse.storage.maintenance.expire;

import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.index.IndexFileMeta;
import dev.streamhouse.storage.index.IndexManifestEntry;
import dev.streamhouse.storage.index.IndexManifestFile;
import dev.streamhouse.storage.io.TablePaths;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.manifest.FileKind;
import dev.streamhouse.storage.manifest.ManifestEntry;
import dev.streamhouse.storage.manifest.ManifestFile;
import dev.streamhouse.storage.manifest.ManifestFileMeta;
import dev.streamhouse.storage.manifest.ManifestList;
import dev.streamhouse.storage.operation.ManifestFilter;
import dev.streamhouse.storage.operation.SnapshotEntries;
import dev.streamhouse.storage.snapshot.CommitKind;
import dev.streamhouse.storage.snapshot.Snapshot;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.List;
import java.util.Set;

/**
 * Reads which files a snapshot references into a {@link FileSet}.
 *
 * <p>Two modes: {@code strict} reads fail on any missing file (used for what must be protected: a
 * missing file there means the table is damaged and nothing may be deleted), tolerant reads skip
 * metadata files that are gone (used for expired snapshots, whose manifests an interrupted earlier run
 * may already have deleted after it had deleted every data file they named).
 */
final class SnapshotReferences {
    private final TablePaths paths;
    private final ManifestList manifestList;
    private final ManifestFile manifestFile;
    private final IndexManifestFile indexManifestFile;
    private final SnapshotEntries entries;

    SnapshotReferences(TablePaths paths, ManifestList manifestList, ManifestFile manifestFile,
            IndexManifestFile indexManifestFile, SnapshotEntries entries) {
        this.paths = paths;
        this.manifestList = manifestList;
        this.manifestFile = manifestFile;
        this.indexManifestFile = indexManifestFile;
        this.entries = entries;
    }

    /**
     * Everything a snapshot references except its data files: manifest lists, data and changelog
     * manifests, the index manifest and its index files, the statistics file; plus, with
     * {@code withChangelog}, its changelog files.
     */
    void addMetadata(Snapshot s, FileSet into, boolean strict, boolean withChangelog) throws IOException {
        addList(s.baseManifestList(), s.baseManifestListSize(), into, strict, false);
        addList(s.deltaManifestList(), s.deltaManifestListSize(), into, strict, false);
        if (s.changelogManifestList() != null) {
            addList(s.changelogManifestList(), s.changelogManifestListSize(), into, strict, withChangelog);
        }
        if (s.indexManifest() != null) {
            addIndex(s.indexManifest(), into, strict);
        }
        if (s.statistics() != null) {
            into.statistics.add(new Path(new Path(paths.root(), "statistics"), s.statistics()));
        }
    }

    private void addIndex(String indexManifest, FileSet into, boolean strict) throws IOException {
        into.manifests.add(indexManifestFile.path(indexManifest));
        List<IndexManifestEntry> index;
        try {
            index = indexManifestFile.read(indexManifest);
        } catch (FileNotFoundException e) {
            if (strict) {
                throw e;
            }
            index = List.of();
        }
        for (IndexManifestEntry e : index) {
            into.contentFiles.add(indexPath(e.indexFile()));
        }
    }

    private void addList(String name, Long size, FileSet into, boolean strict, boolean withFiles) throws IOException {
        into.manifestLists.add(manifestList.path(name));
        List<ManifestFileMeta> manifests;
        try {
            manifests = manifestList.read(name, size);
        } catch (FileNotFoundException e) {
            if (strict) {
                throw e;
            }
            return;
        }
        for (ManifestFileMeta m : manifests) {
            into.manifests.add(manifestFile.path(m.fileName()));
            if (withFiles) {
                List<ManifestEntry> files;
                try {
                    files = manifestFile.read(m.fileName(), m.fileSize());
                } catch (FileNotFoundException e) {
                    if (strict) {
                        throw e;
                    }
                    continue;
                }
                for (ManifestEntry f : files) {
                    addDataFile(f, into.contentFiles);
                }
            }
        }
    }

    /**
     * What the long-lived changelog entry of {@code s} needs to be read (and nothing else): its
     * changelog manifest list, manifests and changelog files; or, for an APPEND or OVERWRITE snapshot
     * without changelog files ({@code changelog-producer = none}, append tables), its delta manifest
     * list, manifests and the data files the delta adds (see {@link #deltaBased}). Plus its index
     * manifest and index files, which a read checks. Tolerant of missing files unless {@code strict}.
     */
    void addChangelogEntry(Snapshot s, FileSet into, boolean strict) throws IOException {
        addChangelogEntry(s, into, strict, true);
    }

    /**
     * Of what {@link #addChangelogEntry} names, only what a snapshot may share with the entry: the
     * delta-based part and the index manifest with its files (an unchanged index manifest carries over
     * to later snapshots); not the entry's own changelog files. Tolerant.
     */
    void addChangelogEntrySharedFiles(Snapshot s, FileSet into) throws IOException {
        addChangelogEntry(s, into, false, false);
    }

    private void addChangelogEntry(Snapshot s, FileSet into, boolean strict, boolean withOwnFiles)
            throws IOException {
        if (s.changelogManifestList() != null) {
            if (withOwnFiles) {
                addList(s.changelogManifestList(), s.changelogManifestListSize(), into, strict, true);
            }
        } else if (deltaBased(s)) {
            addList(s.deltaManifestList(), s.deltaManifestListSize(), into, strict, false);
            List<ManifestEntry> delta;
            try {
                delta = entries.deltaEntries(s, ManifestFilter.ALL);
            } catch (FileNotFoundException e) {
                if (strict) {
                    throw e;
                }
                delta = List.of();
            }
            for (ManifestEntry e : delta) {
                if (e.kind() == FileKind.ADD) {
                    addDataFile(e, into.contentFiles);
                }
            }
        }
        if (s.indexManifest() != null) {
            addIndex(s.indexManifest(), into, strict);
        }
    }

    /**
     * Whether the changelog entry of {@code s} is read from its delta (the data files it adds), which
     * later compactions delete: an APPEND or OVERWRITE snapshot without a changelog manifest list.
     */
    static boolean deltaBased(Snapshot s) {
        return s.changelogManifestList() == null
                && (s.commitKind() == CommitKind.APPEND || s.commitKind() == CommitKind.OVERWRITE);
    }

    /** The data files live in the snapshot (strict). */
    void addLiveDataFiles(Snapshot s, FileSet into) throws IOException {
        for (ManifestEntry e : entries.liveEntries(s, ManifestFilter.ALL)) {
            addDataFile(e, into.contentFiles);
        }
    }

    /**
     * The data files live in the snapshot; unless {@code strict}, a snapshot whose data manifests are
     * partly gone adds every file its remaining manifests ADD (a superset of what it had live: what it
     * named and nothing retained needs may go).
     */
    void addLiveDataFiles(Snapshot s, FileSet into, boolean strict) throws IOException {
        try {
            addLiveDataFiles(s, into);
        } catch (FileNotFoundException e) {
            if (strict) {
                throw e;
            }
            addAddedDataFiles(s.baseManifestList(), s.baseManifestListSize(), into.contentFiles);
            addAddedDataFiles(s.deltaManifestList(), s.deltaManifestListSize(), into.contentFiles);
        }
    }

    /**
     * The data files the snapshot's delta ADDs: with the files live in its predecessor, every file live
     * in it (an upgraded file is deleted and added under the same name, so it is named either way).
     * Tolerant of missing files unless {@code strict}.
     */
    void addAddedDataFiles(Snapshot s, Set<Path> into, boolean strict) throws IOException {
        List<ManifestEntry> delta;
        try {
            delta = entries.deltaEntries(s, ManifestFilter.ALL);
        } catch (FileNotFoundException e) {
            if (strict) {
                throw e;
            }
            addAddedDataFiles(s.deltaManifestList(), s.deltaManifestListSize(), into);
            return;
        }
        for (ManifestEntry e : delta) {
            if (e.kind() == FileKind.ADD) {
                addDataFile(e, into);
            }
        }
    }

    /** Every file the readable manifests of a manifest list ADD, skipping missing files. */
    private void addAddedDataFiles(String list, Long size, Set<Path> into) throws IOException {
        List<ManifestFileMeta> manifests;
        try {
            manifests = manifestList.read(list, size);
        } catch (FileNotFoundException e) {
            return;
        }
        for (ManifestFileMeta m : manifests) {
            try {
                for (ManifestEntry e : manifestFile.read(m.fileName(), m.fileSize())) {
                    if (e.kind() == FileKind.ADD) {
                        addDataFile(e, into);
                    }
                }
            } catch (FileNotFoundException e) {
                // gone: what it named cannot be found any more
            }
        }
    }

    /**
     * Applies the snapshot's delta to {@code unreferenced}, the data files no longer live after the
     * previous snapshots: DELETEd files join it, ADDed ones leave it (a level upgrade deletes and adds
     * the same file in one delta, which stays live).
     */
    void applyDelta(Snapshot s, Set<Path> unreferenced, boolean strict) throws IOException {
        List<ManifestEntry> delta;
        try {
            delta = entries.deltaEntries(s, ManifestFilter.ALL);
        } catch (FileNotFoundException e) {
            if (strict) {
                throw e;
            }
            return;
        }
        FileSet added = new FileSet();
        for (ManifestEntry e : delta) {
            if (e.kind() == FileKind.DELETE) {
                addDataFile(e, unreferenced);
            } else {
                addDataFile(e, added.contentFiles);
            }
        }
        unreferenced.removeAll(added.contentFiles);
    }

    private void addDataFile(ManifestEntry e, Set<Path> into) {
        DataFileMeta f = e.file();
        Path file = f.externalPath() != null ? new Path(f.externalPath())
                : paths.dataFile(e.partition(), e.bucket(), f.fileName());
        into.add(file);
        for (String extra : f.extraFiles()) {
            into.add(new Path(file.parent(), extra));
        }
    }

    private Path indexPath(IndexFileMeta meta) {
        return meta.externalPath() != null ? new Path(meta.externalPath()) : new Path(paths.indexDir(), meta.fileName());
    }
}
