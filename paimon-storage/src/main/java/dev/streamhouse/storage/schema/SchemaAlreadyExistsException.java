package dev.streamhouse.storage.schema;

import dev.streamhouse.storage.fs.Path;

/**
 * Creating a table found schema files already there: the table exists (or another creator won the
 * race for {@code schema/schema-0}). Not retryable; the catalog usually maps it to "table already
 * exists".
 */
public final class SchemaAlreadyExistsException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final Path tableRoot;

    public SchemaAlreadyExistsException(Path tableRoot, String message) {
        super(message);
        this.tableRoot = tableRoot;
    }

    /** The root directory of the existing table. */
    public Path tableRoot() {
        return tableRoot;
    }
}
