package dev.streamhouse.storage.maintenance.expire;

import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.fs.FileStatus;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.snapshot.ChangelogManager;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.snapshot.SnapshotManager;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

/**
 * What the metadata of a table now on disk needs, by full path, read through {@link SnapshotReferences}
 * with the meaning snapshot expiration gives it: for every snapshot from the earliest one on and every
 * tag, its manifest lists, manifests, index manifest and index files, statistics file, changelog files
 * and live data files; for every long-lived changelog entry from {@code changelog/EARLIEST} on, what
 * reading its changes needs. Snapshots and entries below their {@code EARLIEST} hint are being expired
 * and count as gone. Consumers only protect snapshots and entries, so they add nothing here.
 *
 * <p>Snapshot data files are read exactly without reading every snapshot in full: a file live in a
 * snapshot is live in its predecessor or added by its delta, so the first snapshot (and one whose
 * predecessor was not read) contributes its live files, every other the files its delta adds. A tag of
 * a snapshot that was read adds nothing; other tags add their live files. The snapshot listing is
 * repeated until no new snapshot appears (bounded), so a commit landing meanwhile keeps its files.
 *
 * <p>Errors: a missing manifest or index manifest of a snapshot or tag is an {@link IOException} (the
 * table is damaged, nothing may be deleted), unless the snapshot file itself disappeared meanwhile
 * (expired), which is skipped. Branches share the table's files (docs/format.md §11.2) and are not read:
 * {@link #collect} is empty for a table with branches. Not thread-safe.
 */
final class RetainedFiles {
    private static final int MAX_LISTINGS = 10;

    private final FileIO fileIO;
    private final Path tableRoot;
    private final SnapshotManager snapshots;
    private final ChangelogManager changelogs;
    private final SnapshotReferences references;
    private final TaggedSnapshots tags;

    RetainedFiles(FileIO fileIO, Path tableRoot, SnapshotManager snapshots, ChangelogManager changelogs,
            SnapshotReferences references, TaggedSnapshots tags) {
        this.fileIO = fileIO;
        this.tableRoot = tableRoot;
        this.snapshots = snapshots;
        this.changelogs = changelogs;
        this.references = references;
        this.tags = tags;
    }

    /** What the table's metadata needs now; empty if the table has branches (their needs are not read). */
    Optional<FileSet> collect() throws IOException {
        if (hasBranches()) {
            return Optional.empty();
        }
        FileSet kept = new FileSet();
        Map<Long, Snapshot> read = readSnapshots(kept);
        for (Snapshot tagged : tags.snapshots()) {
            if (!sameSnapshot(read.get(tagged.id()), tagged)) {
                references.addMetadata(tagged, kept, true, true);
                references.addLiveDataFiles(tagged, kept);
            }
        }
        Long earliestEntry = changelogs.earliestChangelogId();
        for (Long id : changelogs.listChangelogIds()) {
            if (earliestEntry == null || id < earliestEntry) {
                continue;
            }
            Snapshot entry;
            try {
                entry = changelogs.changelog(id);
            } catch (FileNotFoundException expiredMeanwhile) {
                continue;
            }
            references.addChangelogEntry(entry, kept, false);
        }
        return Optional.of(kept);
    }

    /** Whether two snapshots are the same commit (a tag holds a copy of its snapshot's JSON). */
    static boolean sameSnapshot(Snapshot a, Snapshot b) {
        return a != null && b != null && a.id() == b.id()
                && Objects.equals(a.baseManifestList(), b.baseManifestList())
                && Objects.equals(a.deltaManifestList(), b.deltaManifestList());
    }

    /** Adds what every retained snapshot needs; returns the snapshots read, by id. */
    private Map<Long, Snapshot> readSnapshots(FileSet kept) throws IOException {
        Map<Long, Snapshot> read = new TreeMap<>();
        for (int listing = 0; listing < MAX_LISTINGS; listing++) {
            Long earliest = snapshots.earliestSnapshotId();
            boolean newOnes = false;
            for (Long id : snapshots.listSnapshotIds()) {
                if (earliest == null || id < earliest || read.containsKey(id)) {
                    continue;
                }
                newOnes = true;
                Snapshot s = readSnapshot(id, read.containsKey(id - 1), kept);
                if (s != null) {
                    read.put(id, s);
                }
            }
            if (!newOnes) {
                break;
            }
        }
        return read;
    }

    /** Adds what snapshot {@code id} needs; null if it disappeared meanwhile (expired). */
    private Snapshot readSnapshot(long id, boolean predecessorRead, FileSet kept) throws IOException {
        Snapshot s;
        try {
            s = snapshots.snapshot(id);
        } catch (FileNotFoundException expiredMeanwhile) {
            return null;
        }
        FileSet needs = new FileSet();
        try {
            references.addMetadata(s, needs, true, true);
            if (predecessorRead) {
                references.addAddedDataFiles(s, needs.contentFiles, true);
            } else {
                references.addLiveDataFiles(s, needs);
            }
        } catch (FileNotFoundException e) {
            if (!snapshots.snapshotExists(id)) {
                return null;
            }
            throw e;
        }
        kept.addAll(needs);
        return s;
    }

    private boolean hasBranches() throws IOException {
        List<FileStatus> entries = fileIO.list(new Path(tableRoot, "branch"));
        for (FileStatus s : entries) {
            if (s.isDirectory() && s.path().name().startsWith("branch-")) {
                return true;
            }
        }
        return false;
    }
}
