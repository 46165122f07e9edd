package dev.streamhouse.storage.operation;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.manifest.FileIdentifier;
import dev.streamhouse.storage.manifest.FileKind;
import dev.streamhouse.storage.manifest.ManifestEntry;
import dev.streamhouse.storage.manifest.ManifestFile;
import dev.streamhouse.storage.manifest.ManifestFileMeta;
import dev.streamhouse.storage.manifest.ManifestList;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.types.RowType;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads which data files are live in a snapshot (FORMAT §5.5): all DELETE identities of the base and
 * delta manifests cancel the matching ADDs. Manifests that cannot hold wanted entries are skipped.
 */
public final class SnapshotEntries {
    private final ManifestList manifestList;
    private final ManifestFile manifestFile;
    private final RowType partitionType;
    private final String tableName;

    public SnapshotEntries(ManifestList manifestList, ManifestFile manifestFile, RowType partitionType, String tableName) {
        this.manifestList = manifestList;
        this.manifestFile = manifestFile;
        this.partitionType = partitionType;
        this.tableName = tableName;
    }

    /** Base followed by delta data manifests of a snapshot. */
    public List<ManifestFileMeta> dataManifests(Snapshot s) throws IOException {
        List<ManifestFileMeta> out = new ArrayList<>(manifestList.read(s.baseManifestList(), s.baseManifestListSize()));
        out.addAll(manifestList.read(s.deltaManifestList(), s.deltaManifestListSize()));
        return out;
    }

    /** Entries of the snapshot's delta manifests only (what the snapshot changed). */
    public List<ManifestEntry> deltaEntries(Snapshot s, ManifestFilter filter) throws IOException {
        List<ManifestEntry> out = new ArrayList<>();
        for (ManifestFileMeta m : manifestList.read(s.deltaManifestList(), s.deltaManifestListSize())) {
            if (filter.mayMatch(m)) {
                for (ManifestEntry e : manifestFile.read(m.fileName(), m.fileSize())) {
                    if (filter.matches(e)) {
                        out.add(e);
                    }
                }
            }
        }
        return out;
    }

    /** Live files of the snapshot in the given partitions (all partitions if null). */
    public List<ManifestEntry> liveEntries(Snapshot s, Set<BinaryRow> partitions) throws IOException {
        return liveEntries(s, partitions == null ? ManifestFilter.ALL : ManifestFilter.partitions(partitionType, partitions));
    }

    /** Live files of the snapshot that the filter keeps, in manifest order. */
    public List<ManifestEntry> liveEntries(Snapshot s, ManifestFilter filter) throws IOException {
        List<ManifestFileMeta> manifests = new ArrayList<>();
        for (ManifestFileMeta m : dataManifests(s)) {
            if (filter.mayMatch(m)) {
                manifests.add(m);
            }
        }
        Set<FileIdentifier> deleted = new HashSet<>();
        Map<String, List<ManifestEntry>> cache = new LinkedHashMap<>();
        for (ManifestFileMeta m : manifests) {
            if (m.numDeletedFiles() > 0) {
                List<ManifestEntry> entries = manifestFile.read(m.fileName(), m.fileSize());
                cache.put(m.fileName(), entries);
                for (ManifestEntry e : entries) {
                    if (e.kind() == FileKind.DELETE) {
                        deleted.add(e.identifier());
                    }
                }
            }
        }
        Set<FileIdentifier> added = new HashSet<>();
        List<ManifestEntry> live = new ArrayList<>();
        for (ManifestFileMeta m : manifests) {
            if (m.numAddedFiles() == 0) {
                continue;
            }
            List<ManifestEntry> entries = cache.containsKey(m.fileName())
                    ? cache.get(m.fileName())
                    : manifestFile.read(m.fileName(), m.fileSize());
            for (ManifestEntry e : entries) {
                if (e.kind() != FileKind.ADD || !filter.matches(e)) {
                    continue;
                }
                FileIdentifier id = e.identifier();
                if (deleted.contains(id)) {
                    continue;
                }
                if (!added.add(id)) {
                    throw new IllegalStateException("Cannot read snapshot " + s.id() + " of table " + tableName
                            + ": file " + id + " is added twice (manifest " + m.fileName() + ")");
                }
                live.add(e);
            }
        }
        return live;
    }
}
