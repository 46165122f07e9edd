package dev.streamhouse.storage.bucket.dynamic;

import dev.streamhouse.storage.fs.CorruptFileException;
import dev.streamhouse.storage.fs.Path;

/**
 * A hash index file cannot be used: its size is not a multiple of 4 or disagrees with the size or
 * row count its index manifest entry records, or the entry is not a HASH index. Retrying does not
 * help; the message names the file and the table.
 */
public final class CorruptHashIndexException extends CorruptFileException {
    private static final long serialVersionUID = 1L;

    public CorruptHashIndexException(Path file, String message) {
        super(file, message, null);
    }

    public CorruptHashIndexException(Path file, String message, Throwable cause) {
        super(file, message, cause);
    }
}
