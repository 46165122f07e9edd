package dev.streamhouse.storage.schema;

import dev.streamhouse.storage.fs.Path;

/**
 * A schema file exists but cannot be understood: not JSON, a required member missing, an unknown
 * type, or an id that does not match the file name. Retrying does not help; nothing is deleted. The
 * message names the file and the table.
 */
public final class CorruptSchemaException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final Path file;

    public CorruptSchemaException(Path file, String message, Throwable cause) {
        super(message, cause);
        this.file = file;
    }

    /** The unreadable schema file. */
    public Path file() {
        return file;
    }
}
