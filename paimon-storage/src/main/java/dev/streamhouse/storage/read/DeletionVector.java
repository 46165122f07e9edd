package dev.streamhouse.storage.read;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.manifest.DataFileMeta;

/**
 * The rows of one data file that are deleted without rewriting the file, by their position in it
 * (FORMAT: deletion vectors, {@code deletion-vectors.enabled}). Reads skip the deleted positions of a
 * file before anything else sees its rows, in raw reads and merge reads alike
 * ({@link DataFileReaders#open}).
 *
 * <p>Nothing produces deletion vectors yet: tables that have them are refused before they are read
 * ({@code TableFeatureCheck}), and every read uses {@link Source#NONE}. This is the seam where reading
 * them plugs in. Implementations must be safe to read from the thread that reads the file.
 */
public interface DeletionVector {

    /** Whether the row at {@code position} (0-based, in file order) is deleted. */
    boolean isDeleted(long position);

    /** The deletion vectors of the files a read opens. */
    @FunctionalInterface
    interface Source {
        /** No file has deleted rows. */
        Source NONE = (partition, bucket, file) -> null;

        /** The deletion vector of {@code file} in that partition and bucket, or null if it has none. */
        DeletionVector of(BinaryRow partition, int bucket, DataFileMeta file);
    }
}
