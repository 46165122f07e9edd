package dev.streamhouse.storage.catalog.jdbc;

import dev.streamhouse.storage.catalog.Catalog;
import dev.streamhouse.storage.catalog.CatalogException;
import dev.streamhouse.storage.catalog.Identifier;
import dev.streamhouse.storage.catalog.Names;
import dev.streamhouse.storage.catalog.WarehouseTables;
import dev.streamhouse.storage.catalog.lock.CommitLock;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.schema.Schema;
import dev.streamhouse.storage.schema.SchemaChange;
import dev.streamhouse.storage.table.Table;

import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A catalog whose list of databases and tables lives in a relational database ({@code metastore} =
 * {@code jdbc}), in Apache Paimon's layout ({@link JdbcMetastore}), while each table's schema, snapshots and
 * files stay in the warehouse directory {@code <warehouse>/<db>.db/<table>} as with the filesystem catalog.
 * A table exists when its row does; its directory is written first and removed last. With
 * {@code lock.enabled}, every table's commits publish under its {@link JdbcCommitLock}.
 */
public final class JdbcCatalog implements Catalog {
    private final WarehouseTables tables;
    private final JdbcMetastore rows;
    private final JdbcConnections connections;
    private final JdbcErrors errors;
    private final String where;
    /** The commit lock ({@code lock.enabled}), or null. */
    private final CommitLock.Factory locks;

    JdbcCatalog(WarehouseTables tables, JdbcMetastore rows, JdbcConnections connections, JdbcErrors errors,
                CommitLock.Factory locks) {
        this.tables = tables;
        this.rows = rows;
        this.connections = connections;
        this.errors = errors;
        this.where = errors.where();
        this.locks = locks;
    }

    /** The warehouse as table {@code id} writes it: through its commit lock when there is one. */
    private WarehouseTables tablesFor(Identifier id) {
        return tables.lockedFor(locks, id);
    }

    @Override
    public List<String> listDatabases() {
        return sql("list the databases", rows::databases);
    }

    @Override
    public boolean databaseExists(String database) {
        Names.validateDatabase(database);
        return sql("look up database '" + database + "'", () -> rows.databaseExists(database));
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
        Map<String, String> properties = new LinkedHashMap<>();
        properties.put(JdbcMetastore.EXISTS_PROPERTY, "true");
        properties.put(JdbcMetastore.LOCATION_PROPERTY, location.toString());
        boolean inserted = sql("create database '" + database + "'", () -> rows.insertDatabase(database, properties));
        if (!inserted && !ignoreIfExists) {
            throw new CatalogException.DatabaseAlreadyExist(database);
        }
        tables.mkdirs(location, "database '" + database + "'");
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
        for (String table : names) {
            dropTable(Identifier.of(database, table), true);
        }
        sql("drop database '" + database + "'", () -> {
            rows.deleteDatabase(database);
            return null;
        });
        tables.deleteIfEmpty(tables.databasePath(database));
    }

    @Override
    public List<String> listTables(String database) {
        if (!databaseExists(database)) {
            throw new CatalogException.DatabaseNotExist(database);
        }
        return sql("list the tables of '" + database + "'", () -> rows.tables(database));
    }

    @Override
    public boolean tableExists(Identifier id) {
        Names.validateDatabase(id.database());
        Names.validateTable(id.table());
        return sql("look up table '" + id + "'", () -> rows.tableExists(id.database(), id.table()));
    }

    @Override
    public Table getTable(Identifier id) {
        if (!tableExists(id)) {
            throw new CatalogException.TableNotExist(id);
        }
        Path dir = tables.tablePath(id);
        if (!tables.isTable(dir)) {
            throw new CatalogException("Table '" + id + "' is registered in " + where + " but its directory " + dir
                    + " is missing or holds no schema: restore the directory, or DROP TABLE to unregister it");
        }
        return tablesFor(id).load(id);
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
        boolean inserted;
        try {
            inserted = sql("register table '" + id + "'", () -> rows.insertTable(id.database(), id.table()));
        } catch (RuntimeException e) {
            tables.delete(id);
            throw e;
        }
        if (!inserted && !ignoreIfExists) {
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
        boolean deleted = sql("unregister table '" + id + "'", () -> rows.deleteTable(id.database(), id.table()));
        if (!deleted && !ignoreIfNotExists) {
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
        tablesFor(id).alter(id, changes);
    }

    /** Renames the row, then the directory; if the directory cannot move, the row is renamed back. */
    @Override
    public void renameTable(Identifier from, Identifier to, boolean ignoreIfNotExists) {
        Names.validateRename(from, to);
        if (!tableExists(from)) {
            if (ignoreIfNotExists) {
                return;
            }
            throw new CatalogException.TableNotExist(from);
        }
        if (from.equals(to) || tableExists(to)) {
            throw new CatalogException.TableAlreadyExist(to);
        }
        String what = "rename table '" + from + "' to '" + to + "'";
        if (!sql(what, () -> rows.renameTable(from.database(), from.table(), to.table()))) {
            throw new CatalogException.TableAlreadyExist(to);
        }
        try {
            tables.move(from, to);
        } catch (RuntimeException e) {
            sql("undo the renaming of table '" + from + "'", () -> rows.renameTable(to.database(), to.table(), from.table()));
            throw e;
        }
    }

    @Override
    public void close() {
        connections.close();
    }

    /** A metastore call whose failure names the metastore and the operation. */
    private <T> T sql(String what, SqlCall<T> call) {
        try {
            return call.run();
        } catch (SQLException e) {
            throw errors.failed(what, e, null);
        }
    }

    @FunctionalInterface
    private interface SqlCall<T> {
        T run() throws SQLException;
    }
}
