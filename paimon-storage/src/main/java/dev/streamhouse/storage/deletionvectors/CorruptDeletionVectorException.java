package dev.streamhouse.storage.deletionvectors;

import dev.streamhouse.storage.fs.CorruptFileException;
import dev.streamhouse.storage.fs.Path;

/**
 * A deletion-vector index file cannot be used: wrong version byte, a size that disagrees with its
 * index manifest entry, a vector whose CRC32, length or cardinality does not match, or a bitmap that
 * is malformed. Retrying does not help and nothing is deleted; the message names the index file, the
 * data file whose vector is affected (if one is) and the table.
 */
public final class CorruptDeletionVectorException extends CorruptFileException {
    private static final long serialVersionUID = 1L;

    public CorruptDeletionVectorException(Path indexFile, String message, Throwable cause) {
        super(indexFile, message, cause);
    }
}
