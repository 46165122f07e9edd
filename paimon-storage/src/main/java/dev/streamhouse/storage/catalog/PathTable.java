package dev.streamhouse.storage.catalog;

import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.fs.FileIOs;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.schema.Schema;
import dev.streamhouse.storage.schema.SchemaAlreadyExistsException;
import dev.streamhouse.storage.schema.SchemaManager;
import dev.streamhouse.storage.mergetree.engine.MergeEngines;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.table.Table;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.function.Supplier;

/**
 * A table addressed by its directory instead of through a catalog (Flink's
 * {@code 'connector'='paimon', 'path'='...'} tables). Created from the caller's schema on first use;
 * if another job creates it at the same moment, theirs wins and is used.
 */
public final class PathTable {

    private PathTable() {}

    /**
     * @param location the table directory, e.g. {@code file:///data/wh/db.db/t}
     * @param options the file system options (e.g. an object store's credentials)
     * @param name the name to show in messages, e.g. {@code default_catalog.default_database.t}
     * @param schemaIfNew the schema to create the table with when the directory has none
     * @throws UncheckedIOException if the schema directory cannot be read or written
     */
    public static Table loadOrCreate(String location, Map<String, String> options, String name,
            Supplier<Schema> schemaIfNew) {
        Path root = new Path(location.trim());
        FileIO fileIO = FileIOs.forPath(root, new Options(options));
        SchemaManager schemas = new SchemaManager(fileIO, root);
        try {
            if (schemas.latest().isEmpty()) {
                try {
                    schemas.createTable(schemaIfNew.get(), created -> MergeEngines.validate(created, name));
                } catch (SchemaAlreadyExistsException concurrentlyCreated) {
                    // another job created it first: use theirs
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create table " + name + " at " + root, e);
        }
        return FileStoreTable.load(fileIO, root, name);
    }
}
