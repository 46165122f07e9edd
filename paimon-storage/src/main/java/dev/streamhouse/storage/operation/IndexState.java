package dev.streamhouse.storage.operation;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.index.IndexManifestEntry;
import dev.streamhouse.storage.manifest.FileKind;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The full set of index files after a commit (docs/format.md §5.6): the previous index manifest's entries
 * keyed by (partition, bucket, index type), minus this commit's DELETEs, plus its ADDs. At most one
 * index file of a type per bucket remains.
 */
final class IndexState {
    private IndexState() {}

    private record Key(BinaryRow partition, int bucket, String type) {}

    static List<IndexManifestEntry> apply(List<IndexManifestEntry> previous, List<IndexManifestEntry> changes) {
        Map<Key, IndexManifestEntry> state = new LinkedHashMap<>();
        for (IndexManifestEntry e : previous) {
            if (e.kind() != FileKind.ADD) {
                throw new IllegalStateException("Cannot update the index manifest: it holds a DELETE entry for "
                        + e.indexFile().fileName() + "; stored index manifests hold only ADDs");
            }
            state.put(key(e), e);
        }
        for (IndexManifestEntry e : changes) {
            if (e.kind() == FileKind.DELETE) {
                state.remove(key(e));
            }
        }
        for (IndexManifestEntry e : changes) {
            if (e.kind() == FileKind.ADD) {
                state.put(key(e), e);
            }
        }
        return new ArrayList<>(state.values());
    }

    private static Key key(IndexManifestEntry e) {
        return new Key(e.partition(), e.bucket(), e.indexFile().indexType());
    }
}
