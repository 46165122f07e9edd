package dev.streamhouse.storage.table;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.index.IndexFileMeta;
import dev.streamhouse.storage.index.IndexManifestEntry;
import dev.streamhouse.storage.manifest.ManifestEntry;
import dev.streamhouse.storage.operation.NewerMetadataCheck;
import dev.streamhouse.storage.operation.TableFeatureCheck;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.table.sink.BucketCountCheck;
import dev.streamhouse.storage.table.sink.BucketStateLoader;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * What a writer continues its buckets from: a partition's live files and index entries in the
 * table's snapshot latest at first use (checked once to be writable here), or {@link #EMPTY} for a
 * writer that starts every bucket empty.
 */
final class LatestSnapshotBucketState implements BucketStateLoader {
    /** What an overwrite writer sees of the table: nothing, so it starts every bucket empty. */
    static final BucketStateLoader EMPTY = new BucketStateLoader() {
        @Override
        public List<ManifestEntry> liveFiles(BinaryRow partition) {
            return List.of();
        }

        @Override
        public List<IndexManifestEntry> hashIndexEntries(BinaryRow partition) {
            return List.of();
        }

        @Override
        public List<IndexManifestEntry> deletionVectorEntries(BinaryRow partition) {
            return List.of();
        }

        @Override
        public List<ManifestEntry> levelZeroFiles() {
            return List.of();
        }
    };

    private final FileStoreTable table;
    private Snapshot snapshot;
    private boolean loaded;

    LatestSnapshotBucketState(FileStoreTable table) {
        this.table = table;
    }

    private Snapshot snapshot() throws IOException {
        if (!loaded) {
            snapshot = table.snapshotManager().latestSnapshot().orElse(null);
            new NewerMetadataCheck(table.manifestList(), table.indexManifestFile(), table.fullName())
                    .checkWritable(snapshot);
            if (snapshot != null) {
                table.indexFileCheck().check(snapshot.indexManifest(), TableFeatureCheck.Access.WRITE);
            }
            loaded = true;
        }
        return snapshot;
    }

    @Override
    public List<ManifestEntry> liveFiles(BinaryRow partition) throws IOException {
        Snapshot s = snapshot();
        List<ManifestEntry> live = s == null ? List.of() : table.snapshotEntries().liveEntries(s, Set.of(partition));
        TableFeatureCheck.checkDataFiles(table.fullName(), live, TableFeatureCheck.Access.WRITE);
        BucketCountCheck.check(table.fullName(), table.paths().renderer().values(partition),
                table.schema().numBuckets(), live);
        return live;
    }

    @Override
    public List<ManifestEntry> levelZeroFiles() throws IOException {
        Snapshot s = snapshot();
        List<ManifestEntry> out = new ArrayList<>();
        if (s != null) {
            for (ManifestEntry e : table.snapshotEntries().liveEntries(s, (Set<BinaryRow>) null)) {
                if (e.file().level() == 0) {
                    out.add(e);
                }
            }
        }
        return out;
    }

    @Override
    public List<IndexManifestEntry> hashIndexEntries(BinaryRow partition) throws IOException {
        return indexEntries(partition, IndexFileMeta.HASH_INDEX);
    }

    @Override
    public List<IndexManifestEntry> deletionVectorEntries(BinaryRow partition) throws IOException {
        return indexEntries(partition, IndexFileMeta.DELETION_VECTORS_INDEX);
    }

    private List<IndexManifestEntry> indexEntries(BinaryRow partition, String type) throws IOException {
        Snapshot s = snapshot();
        if (s == null || s.indexManifest() == null) {
            return List.of();
        }
        List<IndexManifestEntry> out = new ArrayList<>();
        for (IndexManifestEntry e : table.indexManifestFile().read(s.indexManifest())) {
            if (e.partition().equals(partition) && type.equals(e.indexFile().indexType())) {
                out.add(e);
            }
        }
        return out;
    }
}
