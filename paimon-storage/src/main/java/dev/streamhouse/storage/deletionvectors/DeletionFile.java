package dev.streamhouse.storage.deletionvectors;

import java.util.Objects;

/**
 * Where the deletion vector of one data file is stored: a range of a DV index file (docs/format.md §9.2), as a
 * snapshot's index manifest records it. A full split of a table with {@code deletion-vectors.enabled}
 * carries one per data file that has a vector ({@link dev.streamhouse.storage.table.source.DataSplit#deletionFiles()}),
 * so that a reader reads just that range ({@link DeletionFileReader}) and never the index manifest.
 * Apache Paimon 1.3's splits carry the same four facts.
 *
 * @param path the index file, in full ({@code <table>/index/index-...}, or its external path)
 * @param offset where the vector's frame starts in the index file (after the version byte, so >= 1)
 * @param length the length the index manifest records for the vector: the blob's size for 32-bit
 *     bitmaps, the whole frame's for 64-bit ones ({@link BitmapLayout#recordedLength})
 * @param cardinality the number of deleted rows, or null if the index manifest does not record it
 */
public record DeletionFile(String path, long offset, long length, Long cardinality) {

    public DeletionFile {
        Objects.requireNonNull(path, "path");
    }
}
