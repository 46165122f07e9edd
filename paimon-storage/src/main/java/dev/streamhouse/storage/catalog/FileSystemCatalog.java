package dev.streamhouse.storage.catalog;

import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.fs.FileStatus;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.schema.Schema;
import dev.streamhouse.storage.schema.SchemaChange;
import dev.streamhouse.storage.table.Table;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The filesystem catalog (docs/format.md §1.1): a database is a directory {@code <warehouse>/<db>.db}, a table
 * a sub-directory holding {@code schema/schema-<n>}. No other metadata is stored.
 */
public final class FileSystemCatalog implements Catalog {
    private final WarehouseTables tables;

    public FileSystemCatalog(FileIO fileIO, Path warehouse) {
        this(new WarehouseTables(fileIO, warehouse));
    }

    /** The catalog of these table directories (and their shared manifest cache). */
    public FileSystemCatalog(WarehouseTables tables) {
        this.tables = tables;
    }

    public Path warehouse() {
        return tables.warehouse();
    }

    public FileIO fileIO() {
        return tables.fileIO();
    }

    public Path databasePath(String database) {
        return tables.databasePath(database);
    }

    public Path tablePath(Identifier id) {
        return tables.tablePath(id);
    }

    @Override
    public List<String> listDatabases() {
        List<String> out = new ArrayList<>();
        String suffix = WarehouseTables.DB_SUFFIX;
        for (FileStatus s : list(warehouse())) {
            String name = s.path().name();
            if (s.isDirectory() && name.endsWith(suffix) && name.length() > suffix.length()) {
                out.add(name.substring(0, name.length() - suffix.length()));
            }
        }
        Collections.sort(out);
        return out;
    }

    @Override
    public boolean databaseExists(String database) {
        Names.validateDatabase(database);
        return tables.exists(databasePath(database));
    }

    @Override
    public void createDatabase(String database, boolean ignoreIfExists) {
        if (databaseExists(database)) {
            if (ignoreIfExists) {
                return;
            }
            throw new CatalogException.DatabaseAlreadyExist(database);
        }
        tables.mkdirs(databasePath(database), "database '" + database + "'");
    }

    @Override
    public void dropDatabase(String database, boolean ignoreIfNotExists, boolean cascade) {
        if (!databaseExists(database)) {
            if (ignoreIfNotExists) {
                return;
            }
            throw new CatalogException.DatabaseNotExist(database);
        }
        List<String> names = listTables(database);
        if (!names.isEmpty() && !cascade) {
            throw new CatalogException.DatabaseNotEmpty(database, names.size());
        }
        try {
            fileIO().delete(databasePath(database), true);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot drop database '" + database + "'", e);
        }
    }

    @Override
    public List<String> listTables(String database) {
        if (!databaseExists(database)) {
            throw new CatalogException.DatabaseNotExist(database);
        }
        List<String> out = new ArrayList<>();
        for (FileStatus s : list(databasePath(database))) {
            if (s.isDirectory() && tables.isTable(s.path())) {
                out.add(s.path().name());
            }
        }
        Collections.sort(out);
        return out;
    }

    @Override
    public boolean tableExists(Identifier id) {
        Names.validateDatabase(id.database());
        Names.validateTable(id.table());
        return tables.isTable(tablePath(id));
    }

    @Override
    public Table getTable(Identifier id) {
        if (!tableExists(id)) {
            throw new CatalogException.TableNotExist(id);
        }
        return tables.load(id);
    }

    @Override
    public void createTable(Identifier id, Schema schema, boolean ignoreIfExists) {
        if (!databaseExists(id.database())) {
            throw new CatalogException.DatabaseNotExist(id.database());
        }
        if (tableExists(id)) {
            if (ignoreIfExists) {
                return;
            }
            throw new CatalogException.TableAlreadyExist(id);
        }
        if (!tables.create(id, schema) && !ignoreIfExists) {
            throw new CatalogException.TableAlreadyExist(id);
        }
    }

    @Override
    public void dropTable(Identifier id, boolean ignoreIfNotExists) {
        if (!tableExists(id)) {
            if (ignoreIfNotExists) {
                return;
            }
            throw new CatalogException.TableNotExist(id);
        }
        tables.delete(id);
    }

    @Override
    public void alterTable(Identifier id, List<SchemaChange> changes, boolean ignoreIfNotExists) {
        if (!tableExists(id)) {
            if (ignoreIfNotExists) {
                return;
            }
            throw new CatalogException.TableNotExist(id);
        }
        tables.alter(id, changes);
    }

    /**
     * Renames the table directory with {@link FileIO#rename}, which refuses an existing target. On a
     * local or HDFS warehouse the rename is atomic; object stores need another catalog.
     */
    @Override
    public void renameTable(Identifier from, Identifier to, boolean ignoreIfNotExists) {
        Names.validateRename(from, to);
        if (!tableExists(from)) {
            if (ignoreIfNotExists) {
                return;
            }
            throw new CatalogException.TableNotExist(from);
        }
        if (from.equals(to)) {
            throw new CatalogException.TableAlreadyExist(to);
        }
        tables.move(from, to);
    }

    private List<FileStatus> list(Path dir) {
        try {
            return fileIO().list(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot list " + dir, e);
        }
    }
}
