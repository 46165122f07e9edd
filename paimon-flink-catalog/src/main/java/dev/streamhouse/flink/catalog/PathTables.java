package dev.streamhouse.flink.catalog;

import dev.streamhouse.storage.options.TableKindOptions;
import dev.streamhouse.storage.fs.FileIOs;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.schema.SchemaAlreadyExistsException;
import dev.streamhouse.storage.schema.SchemaManager;
import dev.streamhouse.storage.table.FileStoreTable;

import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.catalog.ResolvedCatalogTable;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * Tables used without a catalog: {@code CREATE TEMPORARY TABLE t (...) WITH ('connector'='paimon',
 * 'path'='...')}. The table directory is created from the DDL on first use, as in Paimon.
 */
final class PathTables {

    private PathTables() {}

    static FileStoreTable loadOrCreate(ResolvedCatalogTable table, String name) {
        String location = table.getOptions().get(TableKindOptions.PATH.key());
        if (location == null || location.isBlank()) {
            throw new ValidationException("Cannot use table " + name + " with 'connector'='paimon': option 'path' "
                    + "is missing; set it to the table directory, e.g. 'path'='file:///data/wh/db.db/t'");
        }
        Path root = new Path(location.trim());
        FileIO fileIO = FileIOs.forPath(root, new Options(table.getOptions()));
        SchemaManager schemas = new SchemaManager(fileIO, root);
        try {
            if (schemas.latest().isEmpty()) {
                try {
                    schemas.createTable(CatalogTableConverter.toStorageSchema(table, Map.of(), name));
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
