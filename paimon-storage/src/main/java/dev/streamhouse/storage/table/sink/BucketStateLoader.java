package dev.streamhouse.storage.table.sink;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.index.IndexManifestEntry;
import dev.streamhouse.storage.manifest.ManifestEntry;

import java.io.IOException;
import java.util.List;

/**
 * What a writer needs from the table's latest snapshot to continue a partition: its live files
 * (for levels, sequence numbers and the bucket count), its hash index files (dynamic buckets) and its
 * deletion-vector index files.
 */
public interface BucketStateLoader {

    /** Live data files of the partition in the latest snapshot; empty for a new table or partition. */
    List<ManifestEntry> liveFiles(BinaryRow partition) throws IOException;

    /** The partition's HASH index entries of the latest snapshot, in index manifest order. */
    List<IndexManifestEntry> hashIndexEntries(BinaryRow partition) throws IOException;

    /** The partition's DELETION_VECTORS index entries of the same snapshot, in index manifest order. */
    List<IndexManifestEntry> deletionVectorEntries(BinaryRow partition) throws IOException;

    /** Live level-0 data files of every partition in the latest snapshot. */
    List<ManifestEntry> levelZeroFiles() throws IOException;
}
