package dev.streamhouse.storage.catalog;

/** A catalog operation was refused; the subclass says why. */
public class CatalogException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public CatalogException(String message) {
        super(message);
    }

    public CatalogException(String message, Throwable cause) {
        super(message, cause);
    }

    /** The database does not exist. */
    public static final class DatabaseNotExist extends CatalogException {
        private static final long serialVersionUID = 1L;

        public DatabaseNotExist(String database) {
            super("Database '" + database + "' does not exist");
        }
    }

    /** The database exists already. */
    public static final class DatabaseAlreadyExist extends CatalogException {
        private static final long serialVersionUID = 1L;

        public DatabaseAlreadyExist(String database) {
            super("Database '" + database + "' already exists");
        }
    }

    /** Dropping a database that still has tables without CASCADE. */
    public static final class DatabaseNotEmpty extends CatalogException {
        private static final long serialVersionUID = 1L;

        public DatabaseNotEmpty(String database, int tables) {
            super("Cannot drop database '" + database + "': it still has " + tables
                    + " table(s); drop them first or use CASCADE");
        }
    }

    /** The table does not exist. */
    public static final class TableNotExist extends CatalogException {
        private static final long serialVersionUID = 1L;

        public TableNotExist(Identifier id) {
            super("Table '" + id + "' does not exist");
        }
    }

    /** The table exists already. */
    public static final class TableAlreadyExist extends CatalogException {
        private static final long serialVersionUID = 1L;

        public TableAlreadyExist(Identifier id) {
            super("Table '" + id + "' already exists");
        }
    }
}
