package dev.streamhouse.storage.read;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.manifest.DataFileMeta;

import java.io.IOException;

/**
 * The rows of one data file that are deleted without rewriting the file, by their position in it
 * (docs/format.md §9.2, {@code deletion-vectors.enabled}). Reads skip the deleted positions of a file before
 * anything else sees its rows, in raw reads and merge reads alike ({@link DataFileReaders#open}).
 *
 * <p>The stored form, its builder and the reading of a snapshot's vectors are in
 * {@code dev.streamhouse.storage.deletionvectors}. Implementations must be safe to read from the
 * thread that reads the file.
 */
public interface DeletionVector {

    /** Whether the row at {@code position} (0-based, in file order) is deleted. */
    boolean isDeleted(long position);

    /**
     * The deleted positions among {@code [from, from + count)}, as offsets from {@code from} in
     * increasing order, written to {@code out[0..]} (at least {@code count} long); returns how many.
     * Implementations do better than one {@link #isDeleted} per position.
     */
    default int deletedIn(long from, int count, int[] out) {
        int k = 0;
        for (int i = 0; i < count; i++) {
            if (isDeleted(from + i)) {
                out[k++] = i;
            }
        }
        return k;
    }

    /** The deletion vectors of the files a read opens. */
    @FunctionalInterface
    interface Source {
        /** No file has deleted rows. */
        Source NONE = (partition, bucket, file) -> null;

        /**
         * The deletion vector of {@code file} in that partition and bucket, or null if it has none.
         *
         * @throws IOException if the vectors cannot be read (naming the index file and the table)
         */
        DeletionVector of(BinaryRow partition, int bucket, DataFileMeta file) throws IOException;
    }
}
