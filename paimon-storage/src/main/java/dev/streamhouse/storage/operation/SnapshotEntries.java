package dev.streamhouse.storage.operation;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.manifest.EntryFilter;
import dev.streamhouse.storage.manifest.FileEntries;
import dev.streamhouse.storage.manifest.ManifestEntry;
import dev.streamhouse.storage.manifest.ManifestFile;
import dev.streamhouse.storage.manifest.ManifestFileMeta;
import dev.streamhouse.storage.manifest.ManifestList;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.stats.SimpleStats;
import dev.streamhouse.storage.types.RowType;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Reads which data files are live in a snapshot (docs/format.md §5.5): all DELETE identities of the base and
 * delta manifests cancel the matching ADDs. Manifests that cannot hold wanted entries are skipped.
 */
public final class SnapshotEntries {
    private final ManifestList manifestList;
    private final ManifestFile manifestFile;
    private final RowType partitionType;

    public SnapshotEntries(ManifestList manifestList, ManifestFile manifestFile, RowType partitionType) {
        this.manifestList = manifestList;
        this.manifestFile = manifestFile;
        this.partitionType = partitionType;
    }

    /** Base followed by delta data manifests of a snapshot. */
    public List<ManifestFileMeta> dataManifests(Snapshot s) throws IOException {
        List<ManifestFileMeta> out = new ArrayList<>(manifestList.read(s.baseManifestList(), s.baseManifestListSize()));
        out.addAll(manifestList.read(s.deltaManifestList(), s.deltaManifestListSize()));
        return out;
    }

    /** Entries of the snapshot's delta manifests only (what the snapshot changed). */
    public List<ManifestEntry> deltaEntries(Snapshot s, ManifestFilter filter) throws IOException {
        return deltaEntries(s, filter, new ScanCounts());
    }

    /** {@link #deltaEntries(Snapshot, ManifestFilter)}, counting what it read into {@code counts}. */
    List<ManifestEntry> deltaEntries(Snapshot s, ManifestFilter filter, ScanCounts counts) throws IOException {
        List<ManifestEntry> out = new ArrayList<>();
        for (ManifestFileMeta m : manifestList.read(s.deltaManifestList(), s.deltaManifestListSize())) {
            if (filter.mayMatch(m)) {
                counts.manifests++;
                for (ManifestEntry e : manifestFile.read(m.fileName(), m.fileSize())) {
                    counts.entries++;
                    if (filter.matches(e)) {
                        out.add(e);
                    }
                }
            }
        }
        return out;
    }

    /**
     * Entries of the snapshot's changelog manifests (its changelog files, all ADD), in manifest order;
     * empty when the snapshot has no changelog manifest list (docs/format.md §10).
     */
    public List<ManifestEntry> changelogEntries(Snapshot s, ManifestFilter filter) throws IOException {
        return changelogEntries(s, filter, new ScanCounts());
    }

    /** {@link #changelogEntries(Snapshot, ManifestFilter)}, counting what it read into {@code counts}. */
    List<ManifestEntry> changelogEntries(Snapshot s, ManifestFilter filter, ScanCounts counts) throws IOException {
        List<ManifestEntry> out = new ArrayList<>();
        if (s.changelogManifestList() == null) {
            return out;
        }
        for (ManifestFileMeta m : manifestList.read(s.changelogManifestList(), s.changelogManifestListSize())) {
            if (filter.mayMatch(m)) {
                counts.manifests++;
                for (ManifestEntry e : manifestFile.read(m.fileName(), m.fileSize())) {
                    counts.entries++;
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
        return liveEntries(s, filter, new ScanCounts());
    }

    /**
     * {@link #liveEntries(Snapshot, ManifestFilter)}, counting the manifests it read and the live entries
     * they hold into {@code counts}.
     */
    List<ManifestEntry> liveEntries(Snapshot s, ManifestFilter filter, ScanCounts counts) throws IOException {
        List<ManifestFileMeta> manifests = new ArrayList<>();
        for (ManifestFileMeta m : dataManifests(s)) {
            if (filter.mayMatch(m)) {
                manifests.add(m);
            }
        }
        long[] filteredOut = {0};
        EntryFilter counting = new EntryFilter() {
            @Override
            public boolean matches(BinaryRow partition, int bucket) {
                if (filter.matches(partition, bucket)) {
                    return true;
                }
                filteredOut[0]++;
                return false;
            }

            @Override
            public boolean mayMatch(long count, SimpleStats stats, Integer minBucket, Integer maxBucket) {
                return filter.mayMatch(count, stats, minBucket, maxBucket);
            }

            @Override
            public void skipped(long entries) {
                filteredOut[0] += entries;
            }
        };
        List<ManifestEntry> live = filter.isAll() ? FileEntries.liveEntries(manifestFile, manifests)
                : FileEntries.liveEntries(manifestFile, manifests, counting);
        counts.manifests += manifests.size();
        // Entries the filter left out count as read and skipped (also DELETEs, and ADDs deleted later).
        counts.entries += live.size() + filteredOut[0];
        return live;
    }
}
