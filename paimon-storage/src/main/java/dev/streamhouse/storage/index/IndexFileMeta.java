package dev.streamhouse.storage.index;

import java.util.List;

/**
 * An index file in {@code index/} (docs/format.md §9): a dynamic-bucket hash index or deletion vectors.
 *
 * @param rowCount HASH: number of hashes; DELETION_VECTORS: number of data files covered
 * @param deletionVectorRanges for DELETION_VECTORS, where each data file's vector lies; else null
 * @param globalIndex whether the entry describes a global index (its {@code _GLOBAL_INDEX} is set, Paimon 1.4+):
 *     an index that only speeds up queries, whose description this store does not keep
 * @param newerFields the fields of a newer Paimon the entry was read with
 *     ({@link dev.streamhouse.storage.NewerPaimonFeatures#INDEX_MANIFEST_FIELDS}); such an entry is never
 *     written again, since that would drop them
 */
public record IndexFileMeta(
        String indexType,
        String fileName,
        long fileSize,
        long rowCount,
        List<DeletionVectorMeta> deletionVectorRanges,
        String externalPath,
        boolean globalIndex,
        List<String> newerFields) implements java.io.Serializable {

    public IndexFileMeta {
        newerFields = newerFields == null ? List.of() : List.copyOf(newerFields);
    }

    /** An index file of this store's layout. */
    public IndexFileMeta(String indexType, String fileName, long fileSize, long rowCount,
            List<DeletionVectorMeta> deletionVectorRanges, String externalPath) {
        this(indexType, fileName, fileSize, rowCount, deletionVectorRanges, externalPath, false, List.of());
    }

    public static final String HASH_INDEX = "HASH";
    public static final String DELETION_VECTORS_INDEX = "DELETION_VECTORS";
}
