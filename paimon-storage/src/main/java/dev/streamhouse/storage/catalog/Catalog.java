package dev.streamhouse.storage.catalog;

import dev.streamhouse.storage.schema.Schema;
import dev.streamhouse.storage.schema.SchemaChange;
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

    /**
     * Applies {@code changes} (ALTER TABLE) as one new schema version; see
     * {@link dev.streamhouse.storage.schema.SchemaManager#commitChanges} for the rules. Tables loaded
     * before keep their schema; load the table again to see the change.
     *
     * @throws CatalogException.TableNotExist if the table does not exist and {@code ignoreIfNotExists} is false
     * @throws dev.streamhouse.storage.schema.SchemaChangeException if a change is invalid (nothing changed)
     * @throws dev.streamhouse.storage.schema.SchemaChangeConflictException if concurrent changes kept winning
     */
    void alterTable(Identifier identifier, List<SchemaChange> changes, boolean ignoreIfNotExists);

    /**
     * Renames a table within its database (ALTER TABLE ... RENAME TO). Readers and writers of the old
     * name fail afterwards.
     *
     * @throws CatalogException.TableNotExist if {@code from} does not exist and {@code ignoreIfNotExists} is false
     * @throws CatalogException.TableAlreadyExist if {@code to} exists
     * @throws IllegalArgumentException if a name is invalid or the databases differ
     */
    void renameTable(Identifier from, Identifier to, boolean ignoreIfNotExists);

    @Override
    default void close() {}
}
