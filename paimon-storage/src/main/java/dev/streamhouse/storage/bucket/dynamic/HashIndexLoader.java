package dev.streamhouse.storage.bucket.dynamic;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.index.IndexManifestEntry;

import java.io.IOException;
import java.util.List;

/**
 * Where a {@link DynamicBucketAssigner} finds a partition's existing hash index: the caller wires it
 * to the table's latest snapshot.
 */
@FunctionalInterface
public interface HashIndexLoader {

    /**
     * The index manifest entries of type {@code HASH} for {@code partition} in the latest snapshot,
     * in the order of the index manifest (the order decides which partly filled bucket receives new
     * keys first, as in Paimon); empty if there is no snapshot or no index for the partition. All
     * entries are {@code ADD}s (an index manifest holds the full state).
     */
    List<IndexManifestEntry> hashIndexEntries(BinaryRow partition) throws IOException;
}
