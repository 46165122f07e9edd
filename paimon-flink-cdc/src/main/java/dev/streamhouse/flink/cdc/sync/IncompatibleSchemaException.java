package dev.streamhouse.flink.cdc.sync;

/**
 * A source table changed in a way its synced table cannot follow (a column type narrowed to an
 * unrelated type, a primary key that differs, ...); the message names the table, the column and both
 * types. A database sync with {@code --ignore_incompatible} skips such tables instead of failing.
 */
public final class IncompatibleSchemaException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public IncompatibleSchemaException(String message) {
        super(message);
    }
}
