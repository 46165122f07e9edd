package dev.streamhouse.storage.read;

import dev.streamhouse.storage.fs.CorruptFileException;
import dev.streamhouse.storage.fs.Path;

/**
 * A data file of a table cannot be read because its bytes are damaged: it is shorter or longer than
 * the size the table recorded when it was written, or its content cannot be decoded in its format.
 * Retrying does not help and the read must not go on without the file's rows; nothing is deleted. The
 * message names the table, the file, its partition (for a partitioned table) and bucket, and what is
 * wrong; the decoder's own error stays as the cause.
 */
public final class CorruptDataFileException extends CorruptFileException {
    private static final long serialVersionUID = 1L;

    public CorruptDataFileException(Path file, String message, Throwable cause) {
        super(file, message, cause);
    }
}
