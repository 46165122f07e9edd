package dev.streamhouse.storage.bucket.dynamic;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.index.IndexFileMeta;

import java.io.IOException;
import java.util.Objects;

/**
 * Keeps the hash index file (docs/format.md §9.1) of one (partition, bucket) of a dynamic-bucket
 * table up to date, in the writer of that bucket: the writer reports the key hash of every record it
 * writes into the bucket ({@link #notifyKey}), whoever assigned the bucket, and each commit gets a new,
 * complete file for the bucket if a hash was new ({@link #prepareNewFile}). As in Apache Paimon 1.3,
 * where the writers, not the assigners, maintain the index, a bucket's file thus has exactly one
 * author, whatever the number and layout of the assigners. Not thread-safe.
 *
 * <p>Memory: the bucket's hashes in an {@link IntHashSet}, 5–11 bytes each.
 */
public final class HashIndexMaintainer {
    private final HashIndexFile indexFile;
    private final BinaryRow partition;
    private final int bucket;
    private final IntHashSet hashes = new IntHashSet();
    private IndexFileMeta current;
    private boolean modified;

    private HashIndexMaintainer(HashIndexFile indexFile, BinaryRow partition, int bucket, IndexFileMeta current) {
        this.indexFile = Objects.requireNonNull(indexFile, "indexFile");
        this.partition = Objects.requireNonNull(partition, "partition");
        this.bucket = bucket;
        this.current = current;
    }

    /**
     * The maintainer of a bucket whose index file in the latest snapshot is {@code current} (read here),
     * or null if the bucket has none.
     *
     * @throws IOException if the file cannot be read (the error names file, partition and bucket)
     */
    public static HashIndexMaintainer restore(HashIndexFile indexFile, BinaryRow partition, int bucket,
            IndexFileMeta current) throws IOException {
        HashIndexMaintainer m = new HashIndexMaintainer(indexFile, partition, bucket, current);
        if (current != null) {
            for (int hash : indexFile.read(partition, bucket, current)) {
                m.hashes.add(hash);
            }
        }
        return m;
    }

    /** Records that a record with this trimmed primary key hash is written into the bucket. */
    public void notifyKey(int keyHash) {
        if (hashes.add(keyHash)) {
            modified = true;
        }
    }

    /** Whether a hash arrived that the bucket's current file does not hold. */
    public boolean hasChanges() {
        return modified;
    }

    /**
     * Writes a new complete file for the bucket if it has changes and returns it with the file it
     * replaces, or null without changes. The maintainer still considers the old file current until
     * {@link #committed}; if the change is dropped, delete its file.
     */
    public IndexChange prepareNewFile() throws IOException {
        if (!modified) {
            return null;
        }
        return new IndexChange(partition, bucket, indexFile.write(hashes.toArray()), current);
    }

    /** Makes {@code change} (from {@link #prepareNewFile}) the bucket's current file. */
    public void committed(IndexChange change) {
        if (change.bucket() != bucket || change.replacedFile() != current) {
            throw new IllegalArgumentException("Index change " + change + " does not continue bucket " + bucket
                    + " at file " + current);
        }
        current = change.newFile();
        modified = false;
    }

    /** Hashes in the bucket. */
    public int size() {
        return hashes.size();
    }

    public long memoryBytes() {
        return hashes.memoryBytes();
    }
}
