package dev.streamhouse.storage.catalog;

import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.manifest.ManifestCache;
import dev.streamhouse.storage.mergetree.engine.MergeEngines;
import dev.streamhouse.storage.schema.Schema;
import dev.streamhouse.storage.schema.SchemaAlreadyExistsException;
import dev.streamhouse.storage.schema.SchemaChange;
import dev.streamhouse.storage.schema.SchemaManager;
import dev.streamhouse.storage.schema.TableSchema;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.table.Table;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * The table directories of a warehouse, {@code <warehouse>/<db>.db/<table>}, each holding
 * {@code schema/schema-<n>}: what every catalog stores the same way, whatever keeps its list of
 * databases and tables (the directories themselves, or a metastore).
 */
public final class WarehouseTables {
    static final String DB_SUFFIX = ".db";

    private final FileIO fileIO;
    private final Path warehouse;
    private final ManifestCache manifestCache;

    public WarehouseTables(FileIO fileIO, Path warehouse) {
        this(fileIO, warehouse, ManifestCache.NONE);
    }

    /** @param manifestCache the decoded manifests the tables loaded here share (the catalog's) */
    public WarehouseTables(FileIO fileIO, Path warehouse, ManifestCache manifestCache) {
        this.fileIO = fileIO;
        this.warehouse = warehouse;
        this.manifestCache = manifestCache;
    }

    public FileIO fileIO() {
        return fileIO;
    }

    public Path warehouse() {
        return warehouse;
    }

    /**
     * The warehouse as table {@code id} writes it: every publish-once file under its commit lock
     * ({@code lock.enabled}), or this when {@code locks} is null.
     */
    public WarehouseTables lockedFor(dev.streamhouse.storage.catalog.lock.CommitLock.Factory locks, Identifier id) {
        return locks == null ? this : new WarehouseTables(
                new dev.streamhouse.storage.catalog.lock.LockedCommitsFileIO(fileIO, locks, id.database(), id.table()),
                warehouse, manifestCache);
    }

    /** Deletes {@code dir} if it is empty; a failure leaves it (an empty directory left behind is harmless). */
    public void deleteIfEmpty(Path dir) {
        try {
            if (fileIO.exists(dir) && fileIO.list(dir).isEmpty()) {
                fileIO.delete(dir, false);
            }
        } catch (IOException e) {
            // harmless: the catalog no longer lists it
        }
    }

    public Path databasePath(String database) {
        return new Path(warehouse, database + DB_SUFFIX);
    }

    public Path tablePath(Identifier id) {
        return new Path(databasePath(id.database()), id.table());
    }

    /** Whether {@code dir} holds at least one schema file. */
    public boolean isTable(Path dir) {
        try {
            return !new SchemaManager(fileIO, dir).listIds().isEmpty();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot list the schemas of " + dir, e);
        }
    }

    public Table load(Identifier id) {
        return load(tablePath(id), id);
    }

    /** The table in {@code dir}, wherever a metastore says it is. */
    public Table load(Path dir, Identifier id) {
        return FileStoreTable.load(fileIO, dir, id.fullName()).withManifestCache(manifestCache);
    }

    /**
     * Writes the first schema of a new table.
     *
     * @return false if the directory holds a table already (another creator won, or it was left there)
     */
    public boolean create(Identifier id, Schema schema) {
        try {
            new SchemaManager(fileIO, tablePath(id), id.fullName()).createTable(schema,
                    created -> MergeEngines.validate(created, id.fullName()));
            return true;
        } catch (SchemaAlreadyExistsException e) {
            return false;
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create table '" + id + "'", e);
        }
    }

    public TableSchema alter(Identifier id, List<SchemaChange> changes) {
        return alter(tablePath(id), id, changes);
    }

    /** Commits the changes as the next schema of the table in {@code dir}; returns that schema. */
    public TableSchema alter(Path dir, Identifier id, List<SchemaChange> changes) {
        try {
            return new SchemaManager(fileIO, dir, id.fullName()).commitChanges(changes,
                    altered -> MergeEngines.validate(altered, id.fullName()));
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot alter table '" + id + "': " + e.getMessage(), e);
        }
    }

    /** Deletes schema {@code id} of the table in {@code dir} again (a schema change a metastore refused). */
    public void deleteSchema(Path dir, long id) throws IOException {
        fileIO.delete(new SchemaManager(fileIO, dir).schemaPath(id), false);
    }

    /** Deletes the table's directory with everything in it. */
    public void delete(Identifier id) {
        delete(tablePath(id), id);
    }

    /** Deletes {@code dir}, the directory of table {@code id}, with everything in it. */
    public void delete(Path dir, Identifier id) {
        try {
            fileIO.delete(dir, true);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot drop table '" + id + "'", e);
        }
    }

    /**
     * Moves the directory of {@code from} to that of {@code to} with {@link FileIO#rename}, which refuses an
     * existing target (atomic on local disks and HDFS).
     *
     * @throws CatalogException.TableAlreadyExist if the target directory holds a table
     * @throws CatalogException if the target directory exists otherwise
     */
    public void move(Identifier from, Identifier to) {
        Path target = tablePath(to);
        try {
            if (fileIO.exists(target) || !fileIO.rename(tablePath(from), target)) {
                if (isTable(target)) {
                    throw new CatalogException.TableAlreadyExist(to);
                }
                throw new CatalogException("Cannot rename table '" + from + "' to '" + to + "': " + target
                        + " already exists (but is not a table); remove it first");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot rename table '" + from + "' to '" + to + "'", e);
        }
    }

    public boolean exists(Path p) {
        try {
            return fileIO.exists(p);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot check " + p, e);
        }
    }

    public void mkdirs(Path dir, String what) {
        try {
            fileIO.mkdirs(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create " + what + " at " + dir, e);
        }
    }
}
