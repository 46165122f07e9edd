package dev.streamhouse.storage.index;

import java.util.List;

/**
 * An index file in {@code index/} (docs/format.md §9): a dynamic-bucket hash index or deletion vectors.
 *
 * @param rowCount HASH: number of hashes; DELETION_VECTORS: number of data files covered
 * @param deletionVectorRanges for DELETION_VECTORS, where each data file's vector lies; else null
 */
public record IndexFileMeta(
        String indexType,
        String fileName,
        long fileSize,
        long rowCount,
        List<DeletionVectorMeta> deletionVectorRanges,
        String externalPath) implements java.io.Serializable {

    public static final String HASH_INDEX = "HASH";
    public static final String DELETION_VECTORS_INDEX = "DELETION_VECTORS";
}
