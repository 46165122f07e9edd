package dev.streamhouse.storage.catalog;

import dev.streamhouse.storage.schema.Schema;
import dev.streamhouse.storage.table.Table;

import java.util.List;

/**
 * Databases and tables of a warehouse. Errors are {@link CatalogException}s naming the database or
 * table; invalid names are {@link IllegalArgumentException}s.
 */
public interface Catalog extends AutoCloseable {

    List<String> listDatabases();

    boolean databaseExists(String database);

    void createDatabase(String database, boolean ignoreIfExists);

    /** Drops a database; with {@code cascade} its tables too, otherwise it must be empty. */
    void dropDatabase(String database, boolean ignoreIfNotExists, boolean cascade);

    List<String> listTables(String database);

    boolean tableExists(Identifier identifier);

    Table getTable(Identifier identifier);

    void createTable(Identifier identifier, Schema schema, boolean ignoreIfExists);

    void dropTable(Identifier identifier, boolean ignoreIfNotExists);

    @Override
    default void close() {}
}
