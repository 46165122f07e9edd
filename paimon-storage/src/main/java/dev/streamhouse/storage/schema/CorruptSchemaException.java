package dev.streamhouse.storage.schema;

import dev.streamhouse.storage.fs.CorruptFileException;
import dev.streamhouse.storage.fs.Path;

/**
 * A schema file exists but cannot be understood: not JSON, a required member missing, an unknown
 * type, or an id that does not match the file name. Retrying does not help; nothing is deleted. The
 * message names the file and the table.
 */
public final class CorruptSchemaException extends CorruptFileException {
    private static final long serialVersionUID = 1L;

    public CorruptSchemaException(Path file, String message, Throwable cause) {
        super(file, message, cause);
    }
}
