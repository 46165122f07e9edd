package dev.streamhouse.storage.catalog;

import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.fs.FileStatus;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.schema.Schema;
import dev.streamhouse.storage.schema.SchemaChange;
import dev.streamhouse.storage.schema.SchemaManager;
import dev.streamhouse.storage.mergetree.engine.MergeEngines;
import dev.streamhouse.storage.table.FileStoreTable;
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
    static final String DB_SUFFIX = ".db";

    private final FileIO fileIO;
    private final Path warehouse;

    public FileSystemCatalog(FileIO fileIO, Path warehouse) {
        this.fileIO = fileIO;
        this.warehouse = warehouse;
    }

    public Path warehouse() {
        return warehouse;
    }

    public FileIO fileIO() {
        return fileIO;
    }

    public Path databasePath(String database) {
        return new Path(warehouse, database + DB_SUFFIX);
    }

    public Path tablePath(Identifier id) {
        return new Path(databasePath(id.database()), id.table());
    }

    @Override
    public List<String> listDatabases() {
        List<String> out = new ArrayList<>();
        for (FileStatus s : list(warehouse)) {
            String name = s.path().name();
            if (s.isDirectory() && name.endsWith(DB_SUFFIX) && name.length() > DB_SUFFIX.length()) {
                out.add(name.substring(0, name.length() - DB_SUFFIX.length()));
            }
        }
        Collections.sort(out);
        return out;
    }

    @Override
    public boolean databaseExists(String database) {
        Names.validateDatabase(database);
        return exists(databasePath(database));
    }

    @Override
    public void createDatabase(String database, boolean ignoreIfExists) {
        if (databaseExists(database)) {
            if (ignoreIfExists) {
                return;
            }
            throw new CatalogException.DatabaseAlreadyExist(database);
        }
        try {
            fileIO.mkdirs(databasePath(database));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create database '" + database + "' at " + databasePath(database), e);
        }
    }

    @Override
    public void dropDatabase(String database, boolean ignoreIfNotExists, boolean cascade) {
        if (!databaseExists(database)) {
            if (ignoreIfNotExists) {
                return;
            }
            throw new CatalogException.DatabaseNotExist(database);
        }
        List<String> tables = listTables(database);
        if (!tables.isEmpty() && !cascade) {
            throw new CatalogException.DatabaseNotEmpty(database, tables.size());
        }
        try {
            fileIO.delete(databasePath(database), true);
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
            if (s.isDirectory() && isTableDirectory(s.path())) {
                out.add(s.path().name());
            }
        }
        Collections.sort(out);
        return out;
    }

    private boolean isTableDirectory(Path dir) {
        try {
            return !new SchemaManager(fileIO, dir).listIds().isEmpty();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot list the schemas of " + dir, e);
        }
    }

    @Override
    public boolean tableExists(Identifier id) {
        Names.validateDatabase(id.database());
        Names.validateTable(id.table());
        return isTableDirectory(tablePath(id));
    }

    @Override
    public Table getTable(Identifier id) {
        if (!tableExists(id)) {
            throw new CatalogException.TableNotExist(id);
        }
        return FileStoreTable.load(fileIO, tablePath(id), id.fullName());
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
        try {
            new SchemaManager(fileIO, tablePath(id), id.fullName()).createTable(schema,
                    created -> MergeEngines.validate(created, id.fullName()));
        } catch (dev.streamhouse.storage.schema.SchemaAlreadyExistsException e) {
            if (!ignoreIfExists) {
                throw new CatalogException.TableAlreadyExist(id);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create table '" + id + "'", e);
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
        try {
            fileIO.delete(tablePath(id), true);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot drop table '" + id + "'", e);
        }
    }

    @Override
    public void alterTable(Identifier id, List<SchemaChange> changes, boolean ignoreIfNotExists) {
        if (!tableExists(id)) {
            if (ignoreIfNotExists) {
                return;
            }
            throw new CatalogException.TableNotExist(id);
        }
        try {
            new SchemaManager(fileIO, tablePath(id), id.fullName()).commitChanges(changes,
                    altered -> MergeEngines.validate(altered, id.fullName()));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot alter table '" + id + "': " + e.getMessage(), e);
        }
    }

    /**
     * Renames the table directory with {@link FileIO#rename}, which refuses an existing target. On a
     * local or HDFS warehouse the rename is atomic; object stores need another catalog.
     */
    @Override
    public void renameTable(Identifier from, Identifier to, boolean ignoreIfNotExists) {
        Names.validateDatabase(to.database());
        Names.validateTable(to.table());
        if (!from.database().equals(to.database())) {
            throw new IllegalArgumentException("Cannot rename table '" + from + "' to '" + to
                    + "': tables can only be renamed within their database");
        }
        if (!tableExists(from)) {
            if (ignoreIfNotExists) {
                return;
            }
            throw new CatalogException.TableNotExist(from);
        }
        if (from.equals(to)) {
            throw new CatalogException.TableAlreadyExist(to);
        }
        Path target = tablePath(to);
        try {
            if (fileIO.exists(target) || !fileIO.rename(tablePath(from), target)) {
                if (tableExists(to)) {
                    throw new CatalogException.TableAlreadyExist(to);
                }
                throw new CatalogException("Cannot rename table '" + from + "' to '" + to + "': " + target
                        + " already exists (but is not a table); remove it first");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot rename table '" + from + "' to '" + to + "'", e);
        }
    }

    private boolean exists(Path p) {
        try {
            return fileIO.exists(p);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot check " + p, e);
        }
    }

    private List<FileStatus> list(Path dir) {
        try {
            return fileIO.list(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot list " + dir, e);
        }
    }
}
