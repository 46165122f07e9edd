package dev.streamhouse.hive;

import dev.streamhouse.storage.catalog.Catalog;
import dev.streamhouse.storage.catalog.CatalogException;
import dev.streamhouse.storage.catalog.Identifier;
import dev.streamhouse.storage.catalog.Names;
import dev.streamhouse.storage.catalog.WarehouseTables;
import dev.streamhouse.storage.catalog.lock.CommitLock;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.options.PartitionLifecycleOptions;
import dev.streamhouse.storage.options.TagOptions;
import dev.streamhouse.storage.schema.Schema;
import dev.streamhouse.storage.schema.SchemaChange;
import dev.streamhouse.storage.schema.TableSchema;
import dev.streamhouse.storage.table.sink.MetastorePartitions;
import dev.streamhouse.storage.table.Table;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.hadoop.hive.metastore.api.AlreadyExistsException;
import org.apache.hadoop.hive.metastore.api.Database;
import org.apache.hadoop.hive.metastore.api.EnvironmentContext;
import org.apache.hadoop.hive.metastore.api.NoSuchObjectException;
import org.apache.hadoop.hive.metastore.api.PrincipalType;

/**
 * A catalog whose databases and tables are registered in a Hive metastore ({@code metastore} = {@code hive}),
 * as Apache Paimon's Hive catalog registers them ({@link HiveTableRecords}), so both stores, and the engines
 * that read Paimon tables through the metastore, share them. Each table's schema, snapshots and files live
 * in the directory its record names, {@code <warehouse>/<db>.db/<table>} for the tables this catalog
 * creates. A table exists when its record does; its directory is written first and removed last. Hive
 * tables that are not Paimon tables are not listed and cannot be opened. With {@code lock.enabled}, every
 * table's commits publish under the metastore's table lock ({@link HiveCommitLock}).
 */
final class HiveCatalog implements Catalog {
    /** Tables fetched per call when listing (Paimon's hive.metastore.batch.retrieve.max default). */
    private static final int LIST_BATCH = 300;

    private final WarehouseTables tables;
    private final HiveClients clients;
    private final HiveTableRecords records;
    private final String where;
    private final String owner;
    /** The commit lock ({@code lock.enabled}), or null. */
    private final CommitLock.Factory locks;

    HiveCatalog(WarehouseTables tables, HiveClients clients, HiveTableRecords records, String owner,
                CommitLock.Factory locks) {
        this.tables = tables;
        this.clients = clients;
        this.records = records;
        this.where = clients.where();
        this.owner = owner;
        this.locks = locks;
    }

    /** The warehouse as table {@code id} writes it: through its commit lock when there is one. */
    private WarehouseTables tablesFor(Identifier id) {
        return tables.lockedFor(locks, id);
    }

    @Override
    public List<String> listDatabases() {
        return clients.run("list the databases", c -> c.getAllDatabases());
    }

    @Override
    public boolean databaseExists(String database) {
        Names.validateDatabase(database);
        return clients.run("look up database '" + database + "'", c -> {
            try {
                c.getDatabase(database);
                return true;
            } catch (NoSuchObjectException e) {
                return false;
            }
        });
    }

    @Override
    public void createDatabase(String database, boolean ignoreIfExists) {
        if (databaseExists(database)) {
            if (ignoreIfExists) {
                return;
            }
            throw new CatalogException.DatabaseAlreadyExist(database);
        }
        Path location = tables.databasePath(database);
        tables.mkdirs(location, "database '" + database + "'");
        Database record = new Database(database, null, location.toString(), new HashMap<>());
        record.setOwnerName(owner);
        record.setOwnerType(PrincipalType.USER);
        boolean created = clients.run("create database '" + database + "'", c -> {
            try {
                c.createDatabase(record);
                return true;
            } catch (AlreadyExistsException e) {
                return false;
            }
        });
        if (!created && !ignoreIfExists) {
            throw new CatalogException.DatabaseAlreadyExist(database);
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
        List<String> all = clients.run("list the tables of '" + database + "'", c -> c.getAllTables(database));
        if (!all.isEmpty() && !cascade) {
            throw new CatalogException.DatabaseNotEmpty(database, all.size());
        }
        for (String table : listTables(database)) {
            dropTable(Identifier.of(database, table), true);
        }
        clients.run("drop database '" + database + "'", c -> {
            c.dropDatabase(database, true, true, true);
            return null;
        });
        tables.deleteIfEmpty(tables.databasePath(database));
    }

    @Override
    public List<String> listTables(String database) {
        if (!databaseExists(database)) {
            throw new CatalogException.DatabaseNotExist(database);
        }
        return clients.run("list the tables of '" + database + "'", c -> {
            List<String> names = c.getAllTables(database);
            List<String> paimon = new ArrayList<>();
            for (int i = 0; i < names.size(); i += LIST_BATCH) {
                List<String> batch = names.subList(i, Math.min(names.size(), i + LIST_BATCH));
                for (org.apache.hadoop.hive.metastore.api.Table record : c.getTableObjectsByName(database, batch)) {
                    if (HiveTableRecords.isPaimonTable(record)) {
                        paimon.add(record.getTableName());
                    }
                }
            }
            paimon.sort(null);
            return paimon;
        });
    }

    @Override
    public boolean tableExists(Identifier id) {
        Names.validateDatabase(id.database());
        Names.validateTable(id.table());
        org.apache.hadoop.hive.metastore.api.Table record = recordOrNull(id);
        return record != null && HiveTableRecords.isPaimonTable(record);
    }

    /** The metastore's record of {@code id}, whatever kind of table it is, or null. */
    private org.apache.hadoop.hive.metastore.api.Table recordOrNull(Identifier id) {
        return clients.run("look up table '" + id + "'", c -> {
            try {
                return c.getTable(id.database(), id.table());
            } catch (NoSuchObjectException e) {
                return null;
            }
        });
    }

    /** The record of Paimon table {@code id}. */
    private org.apache.hadoop.hive.metastore.api.Table paimonRecord(Identifier id) {
        org.apache.hadoop.hive.metastore.api.Table record = recordOrNull(id);
        if (record == null) {
            throw new CatalogException.TableNotExist(id);
        }
        if (!HiveTableRecords.isPaimonTable(record)) {
            throw new CatalogException("Table '" + id + "' in " + where + " is not a Paimon table (input format "
                    + (record.getSd() == null ? null : record.getSd().getInputFormat()) + "); read it with the "
                    + "engine that wrote it, e.g. through Flink's Hive catalog");
        }
        return record;
    }

    /** Where a record says its table's files are, checked to be on the warehouse's file system. */
    private Path location(Identifier id, org.apache.hadoop.hive.metastore.api.Table record) {
        String location = record.getSd() == null ? null : record.getSd().getLocation();
        if (location == null || location.isBlank()) {
            throw new CatalogException("Table '" + id + "' in " + where + " has no location; re-register it "
                    + "with its directory as location");
        }
        Path path = new Path(location);
        if (isLocal(path) && isLocal(tables.warehouse())) {
            return normalized(path);
        }
        if (!java.util.Objects.equals(path.scheme(), tables.warehouse().scheme())) {
            throw new CatalogException("Table '" + id + "' in " + where + " is at " + location + ", on another file "
                    + "system than the warehouse " + tables.warehouse() + "; open it with a catalog whose "
                    + "'warehouse' is on that file system");
        }
        return path;
    }

    private static boolean isLocal(Path path) {
        return path.scheme() == null || path.scheme().equals("file");
    }

    /** A local path without its scheme: the metastore writes file:/x for the warehouse's /x. */
    private static Path normalized(Path path) {
        return isLocal(path) ? new Path(path.path()) : path;
    }

    @Override
    public Table getTable(Identifier id) {
        org.apache.hadoop.hive.metastore.api.Table record = paimonRecord(id);
        Path dir = location(id, record);
        if (!tables.isTable(dir)) {
            throw new CatalogException("Table '" + id + "' is registered in " + where + " but its directory " + dir
                    + " is missing or holds no schema: restore the directory, or DROP TABLE to unregister it");
        }
        Table table = tablesFor(id).load(dir, id);
        if (!record.getPartitionKeys().isEmpty() && table instanceof dev.streamhouse.storage.table.FileStoreTable files) {
            HivePartitionRegistry registry = new HivePartitionRegistry(clients.settings(), id.database(), id.table());
            String tagKey = HiveTableRecords.tagPartitionKey(files.schema());
            return files.withMetastorePartitions(tagKey != null
                    ? MetastorePartitions.ofTags(registry, tagKey) : MetastorePartitions.ofData(registry));
        }
        return table;
    }

    @Override
    public void createTable(Identifier id, Schema schema, boolean ignoreIfExists) {
        if (!databaseExists(id.database())) {
            throw new CatalogException.DatabaseNotExist(id.database());
        }
        org.apache.hadoop.hive.metastore.api.Table existing = recordOrNull(id);
        if (existing != null) {
            if (!HiveTableRecords.isPaimonTable(existing)) {
                throw new CatalogException("Cannot create table '" + id + "': " + where + " has a table of that name "
                        + "that is not a Paimon table; choose another name");
            }
            if (ignoreIfExists) {
                return;
            }
            throw new CatalogException.TableAlreadyExist(id);
        }
        Path dir = tables.tablePath(id);
        if (tables.isTable(dir)) {
            throw new CatalogException("Cannot create table '" + id + "': " + dir + " already holds a table that is "
                    + "not registered in " + where + "; remove the directory, or create the table under another name");
        }
        if (!tablesFor(id).create(id, schema)) {
            if (ignoreIfExists) {
                return;
            }
            throw new CatalogException.TableAlreadyExist(id);
        }
        boolean registered;
        try {
            TableSchema created = tables.load(dir, id).schema();
            refuseMetastoreLayouts(id, created);
            org.apache.hadoop.hive.metastore.api.Table record = records.newTable(id.database(), id.table(), created, dir);
            registered = clients.run("register table '" + id + "'", c -> {
                try {
                    c.createTable(record);
                    return true;
                } catch (AlreadyExistsException e) {
                    return false;
                }
            });
        } catch (RuntimeException e) {
            tables.delete(dir, id);
            throw e;
        }
        if (!registered) {
            tables.delete(dir, id);
            if (!ignoreIfExists) {
                throw new CatalogException.TableAlreadyExist(id);
            }
        }
    }

    /**
     * Refuses what the metastore record cannot show: tags as partitions of a partitioned table (whose
     * partitions are the files'), or previews of tags not yet taken.
     */
    private void refuseMetastoreLayouts(Identifier id, TableSchema schema) {
        String tagKey = HiveTableRecords.tagPartitionKey(schema);
        if (tagKey == null) {
            return;
        }
        if (!schema.partitionKeys().isEmpty()) {
            throw new CatalogException("Table '" + id + "': option '" + TagOptions.METASTORE_TAG_TO_PARTITION.key()
                    + "' needs an unpartitioned table (the tags become its partitions in " + where + "); it is "
                    + "partitioned by " + schema.partitionKeys());
        }
        if (schema.fieldNames().contains(tagKey)) {
            throw new CatalogException("Table '" + id + "': option '" + TagOptions.METASTORE_TAG_TO_PARTITION.key()
                    + "' = '" + tagKey + "' names a column of the table; choose another partition name");
        }
        String preview = schema.options().getOrDefault(TagOptions.METASTORE_TAG_TO_PARTITION_PREVIEW.key(), "none");
        if (!preview.trim().equalsIgnoreCase("none")) {
            throw new CatalogException("Table '" + id + "': option '"
                    + TagOptions.METASTORE_TAG_TO_PARTITION_PREVIEW.key() + "' = '" + preview + "' is not supported yet: "
                    + "only tags that exist become partitions in " + where + "; remove the option");
        }
    }

    @Override
    public void dropTable(Identifier id, boolean ignoreIfNotExists) {
        org.apache.hadoop.hive.metastore.api.Table record = recordOrNull(id);
        if (record == null || !HiveTableRecords.isPaimonTable(record)) {
            if (ignoreIfNotExists && record == null) {
                return;
            }
            paimonRecord(id);  // throws: does not exist, or is not a Paimon table
        }
        Path dir = location(id, record);
        boolean dropped = clients.run("unregister table '" + id + "'", c -> {
            try {
                c.dropTable(id.database(), id.table(), false, false, true);
                return true;
            } catch (NoSuchObjectException e) {
                return false;
            }
        });
        if (!dropped && !ignoreIfNotExists) {
            throw new CatalogException.TableNotExist(id);
        }
        tables.delete(dir, id);
    }

    /**
     * Commits the new schema, then updates the record (columns, parameters); if the metastore refuses the
     * update, the new schema file is deleted again, so files and record never disagree.
     */
    @Override
    public void alterTable(Identifier id, List<SchemaChange> changes, boolean ignoreIfNotExists) {
        org.apache.hadoop.hive.metastore.api.Table record = recordOrNull(id);
        if (record == null && ignoreIfNotExists) {
            return;
        }
        record = paimonRecord(id);
        Path dir = location(id, record);
        TableSchema before = tables.load(dir, id).schema();
        TableSchema after = tablesFor(id).alter(dir, id, changes);
        try {
            refuseMetastoreLayouts(id, after);
            if (HiveTableRecords.partitionedInMetastore(before) != HiveTableRecords.partitionedInMetastore(after)
                    || !java.util.Objects.equals(HiveTableRecords.tagPartitionKey(before),
                            HiveTableRecords.tagPartitionKey(after))) {
                throw new CatalogException("Cannot alter table '" + id + "': its partitions in " + where + " ('"
                        + PartitionLifecycleOptions.METASTORE_PARTITIONED_TABLE.key() + "', '"
                        + TagOptions.METASTORE_TAG_TO_PARTITION.key() + "') are fixed when the table is created");
            }
            records.update(record, after, before.options());
            org.apache.hadoop.hive.metastore.api.Table updated = record;
            EnvironmentContext cascade = new EnvironmentContext(Map.of("CASCADE", "true"));
            clients.run("update table '" + id + "'", c -> {
                c.alter_table_with_environmentContext(id.database(), id.table(), updated, cascade);
                return null;
            });
        } catch (RuntimeException e) {
            deleteSchema(dir, after, id, e);
            throw e;
        }
    }

    private void deleteSchema(Path dir, TableSchema schema, Identifier id, RuntimeException failure) {
        try {
            tables.deleteSchema(dir, schema.id());
        } catch (IOException e) {
            failure.addSuppressed(new IOException("The new schema " + schema.id() + " of table '" + id
                    + "' could not be removed again; delete it by hand", e));
        }
    }

    /**
     * Renames the record, then the directory when it is at its name's place in the warehouse (with the
     * record's location); if the directory cannot move, the record is renamed back. A table elsewhere
     * (registered by another catalog with its own location) keeps its directory.
     */
    @Override
    public void renameTable(Identifier from, Identifier to, boolean ignoreIfNotExists) {
        Names.validateRename(from, to);
        org.apache.hadoop.hive.metastore.api.Table record = recordOrNull(from);
        if (record == null && ignoreIfNotExists) {
            return;
        }
        record = paimonRecord(from);
        if (from.equals(to) || recordOrNull(to) != null) {
            throw new CatalogException.TableAlreadyExist(to);
        }
        boolean moves = location(from, record).equals(normalized(tables.tablePath(from)));
        org.apache.hadoop.hive.metastore.api.Table renamed = record.deepCopy();
        renamed.setTableName(to.table());
        if (moves) {
            renamed.getSd().setLocation(tables.tablePath(to).toString());
        }
        clients.run("rename table '" + from + "' to '" + to + "'", c -> {
            c.alter_table(from.database(), from.table(), renamed);
            return null;
        });
        if (!moves) {
            return;
        }
        try {
            tables.move(from, to);
        } catch (RuntimeException e) {
            org.apache.hadoop.hive.metastore.api.Table back = record;
            try {
                clients.run("undo the renaming of table '" + from + "'", c -> {
                    c.alter_table(to.database(), to.table(), back);
                    return null;
                });
            } catch (RuntimeException undo) {
                e.addSuppressed(undo);
            }
            throw e;
        }
    }

    @Override
    public void close() {
        clients.close();
    }
}
