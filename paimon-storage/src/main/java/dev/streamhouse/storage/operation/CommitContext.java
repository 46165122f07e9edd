package dev.streamhouse.storage.operation;

import dev.streamhouse.storage.index.IndexManifestFile;
import dev.streamhouse.storage.manifest.ManifestEntry;
import dev.streamhouse.storage.manifest.ManifestFile;
import dev.streamhouse.storage.manifest.ManifestList;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.snapshot.SnapshotManager;

import java.io.IOException;
import java.util.List;

/** What a commit attempt reads and writes with. */
record CommitContext(
        ManifestFile manifestFile,
        ManifestList manifestList,
        IndexManifestFile indexManifestFile,
        SnapshotManager snapshots,
        SnapshotEntries entries,
        CommitSettings settings,
        String commitUser) {

    List<ManifestEntry> liveEntries(Snapshot snapshot) throws IOException {
        return entries.liveEntries(snapshot, ManifestFilter.ALL);
    }
}
