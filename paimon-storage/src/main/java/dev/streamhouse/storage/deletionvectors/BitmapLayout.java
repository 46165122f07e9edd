package dev.streamhouse.storage.deletionvectors;

import dev.streamhouse.storage.options.MergeTreeOptions;
import dev.streamhouse.storage.options.Options;

/**
 * The two stored forms of a deletion vector's bitmap (docs/format.md §9.2). Both are framed the same way in a
 * DV index file, {@code int32 BE size | blob | int32 BE CRC32(blob)}, and differ in the blob and in
 * what the index manifest records as the vector's length ({@code _DELETIONS_VECTORS_RANGES.f2}).
 */
public enum BitmapLayout {
    /**
     * The default: blob = {@code int32 BE} magic 1581511376, then one portable 32-bit RoaringBitmap of
     * the positions (all below 2^31). The recorded length is the blob's size.
     */
    BITMAP32,
    /**
     * {@code deletion-vectors.bitmap64}, the form Iceberg reads: blob = {@code int32 LE} magic
     * 1681511377, {@code int64 LE} number of bitmaps, then for each high word from 0 up
     * {@code int32 LE} high word and a portable 32-bit RoaringBitmap of the low words (empty ones
     * included). The recorded length is the whole frame: size + 8 (verified against Paimon 1.3.1).
     */
    BITMAP64;

    static final int MAGIC32 = 1581511376;
    static final int MAGIC64 = 1681511377;

    /** The layout a table writes, by its option {@code deletion-vectors.bitmap64}. */
    public static BitmapLayout of(Options tableOptions) {
        return tableOptions.get(MergeTreeOptions.DELETION_VECTORS_BITMAP64) ? BITMAP64 : BITMAP32;
    }

    /** What the index manifest records as the length of a vector whose blob has {@code blobSize} bytes. */
    public int recordedLength(int blobSize) {
        return this == BITMAP32 ? blobSize : blobSize + 8;
    }
}
