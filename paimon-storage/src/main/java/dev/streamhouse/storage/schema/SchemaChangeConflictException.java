package dev.streamhouse.storage.schema;

/**
 * An {@code ALTER TABLE} kept losing the race for the next schema version to concurrent changes and
 * was given up; nothing of it was written. Retrying later may succeed.
 */
public final class SchemaChangeConflictException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public SchemaChangeConflictException(String message) {
        super(message);
    }
}
