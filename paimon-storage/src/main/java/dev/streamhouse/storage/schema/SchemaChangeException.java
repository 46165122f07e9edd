package dev.streamhouse.storage.schema;

/**
 * An {@code ALTER TABLE} was refused because a change is invalid for the table: nothing was written,
 * and retrying the same changes will fail again. The message says "Cannot &lt;change&gt; ...: &lt;why&gt;"
 * and names the table, column or option. Subclasses mark the cases callers commonly handle (e.g. a
 * CDC sink that ignores a column that already exists).
 */
public class SchemaChangeException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    public SchemaChangeException(String message) {
        super(message);
    }

    /** The change names a column that does not exist. */
    public static final class ColumnNotExist extends SchemaChangeException {
        private static final long serialVersionUID = 1L;
        private final String column;

        public ColumnNotExist(String column, String message) {
            super(message);
            this.column = column;
        }

        public String column() {
            return column;
        }
    }

    /** The change would create a column whose name is already taken. */
    public static final class ColumnAlreadyExist extends SchemaChangeException {
        private static final long serialVersionUID = 1L;
        private final String column;

        public ColumnAlreadyExist(String column, String message) {
            super(message);
            this.column = column;
        }

        public String column() {
            return column;
        }
    }
}
