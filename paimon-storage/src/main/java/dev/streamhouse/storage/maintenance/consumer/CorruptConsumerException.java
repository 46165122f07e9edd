package dev.streamhouse.storage.maintenance.consumer;

import dev.streamhouse.storage.fs.CorruptFileException;
import dev.streamhouse.storage.fs.Path;

/**
 * A consumer file exists but does not hold {@code { "nextSnapshot" : N }}. Retrying does not help: an
 * operator must fix or delete the file. The message names the file and the table.
 */
public final class CorruptConsumerException extends CorruptFileException {
    private static final long serialVersionUID = 1L;

    public CorruptConsumerException(Path file, String message, Throwable cause) {
        super(file, message, cause);
    }
}
