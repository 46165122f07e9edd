package dev.streamhouse.flink.cdc.catalog;

import dev.streamhouse.flink.cdc.event.CdcColumn;
import dev.streamhouse.flink.cdc.event.CdcSchema;
import dev.streamhouse.flink.cdc.event.CdcTableId;
import dev.streamhouse.flink.cdc.mysql.MySqlConnections;
import dev.streamhouse.flink.cdc.mysql.NameRegex;
import dev.streamhouse.flink.cdc.mysql.TableDiscovery;
import dev.streamhouse.flink.cdc.source.MySqlSourceConfig;
import dev.streamhouse.flink.cdc.table.MySqlCdcOptions;
import dev.streamhouse.flink.cdc.table.MySqlTypeMapping;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.catalog.CatalogBaseTable;
import org.apache.flink.table.catalog.CatalogDatabase;
import org.apache.flink.table.catalog.CatalogDatabaseImpl;
import org.apache.flink.table.catalog.CatalogTable;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.exceptions.CatalogException;
import org.apache.flink.table.catalog.exceptions.DatabaseNotExistException;
import org.apache.flink.table.catalog.exceptions.TableNotExistException;
import org.apache.flink.table.factories.Factory;
import org.apache.flink.table.types.DataType;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code 'type' = 'mysql'}: a MySQL or MariaDB server's databases and tables (read from
 * {@code information_schema}, so a user sees what it may read) as Flink tables. A table has the Flink
 * types of {@link MySqlTypeMapping}, NOT NULL where MySQL's column is, its primary key, and the options
 * of a {@code mysql-cdc} table of exactly that database and table, so
 * {@code SELECT * FROM mysql.shop.orders} reads its snapshot and then its changes (hints such as
 * {@code /*+ OPTIONS('server-id' = '5401') *&#47;} add source options). The password stays in the
 * catalog: the tables' options leave it out (SHOW CREATE TABLE shows none), and the catalog's table
 * factory adds it. Databases and tables are read anew on every call: tables created in MySQL appear
 * without re-creating the catalog. Nothing can be changed through it.
 */
public final class MySqlCatalog extends ReadOnlyCatalog {
    private final MySqlSourceConfig connection;
    private final Map<String, String> tableOptions;

    /**
     * @param connection where the server is and how to log in
     * @param tableOptions the {@code mysql-cdc} options every table gets (connection without password,
     *     time zone, JDBC properties)
     */
    MySqlCatalog(String name, String defaultDatabase, MySqlSourceConfig connection, Map<String, String> tableOptions) {
        super(name, defaultDatabase);
        this.connection = connection;
        this.tableOptions = Map.copyOf(tableOptions);
    }

    @Override
    String readOnlyReason() {
        return "(type 'mysql') is read-only: it reads the tables of MySQL server " + connection.address()
                + " as change streams; change them in MySQL";
    }

    @Override
    public void open() {
        try (Connection c = connect()) {
            String database = getDefaultDatabase();
            if (database != null && !TableDiscovery.databases(c).contains(database)) {
                throw new CatalogException("Cannot open catalog '" + name() + "': its 'default-database' '"
                        + database + "' is not a database of MySQL server " + connection.address()
                        + " (or user '" + connection.username() + "' may not see it)");
            }
        } catch (SQLException e) {
            throw failure("open catalog '" + name() + "'", e);
        }
    }

    @Override
    public void close() {}

    @Override
    public Optional<Factory> getFactory() {
        return Optional.of(new MySqlCatalogTableFactory(name(), connection.password(), readOnlyReason()));
    }

    @Override
    public List<String> listDatabases() {
        try (Connection c = connect()) {
            return TableDiscovery.databases(c);
        } catch (SQLException e) {
            throw failure("list the databases of catalog '" + name() + "'", e);
        }
    }

    @Override
    public CatalogDatabase getDatabase(String database) throws DatabaseNotExistException {
        requireDatabase(database);
        return new CatalogDatabaseImpl(Map.of(), null);
    }

    @Override
    public boolean databaseExists(String database) {
        return listDatabases().contains(database);
    }

    @Override
    public List<String> listTables(String database) throws DatabaseNotExistException {
        requireDatabase(database);
        try (Connection c = connect()) {
            return TableDiscovery.tables(c, database);
        } catch (SQLException e) {
            throw failure("list the tables of `" + name() + "`.`" + database + "`", e);
        }
    }

    @Override
    public boolean tableExists(ObjectPath path) {
        try (Connection c = connect()) {
            return TableDiscovery.tables(c, path.getDatabaseName()).contains(path.getObjectName());
        } catch (SQLException e) {
            throw failure("look up table " + path.getFullName() + " in catalog '" + name() + "'", e);
        }
    }

    @Override
    public CatalogBaseTable getTable(ObjectPath path) throws TableNotExistException {
        CdcSchema schema;
        try (Connection c = connect()) {
            if (!TableDiscovery.tables(c, path.getDatabaseName()).contains(path.getObjectName())) {
                throw new TableNotExistException(name(), path);
            }
            schema = TableDiscovery.tableOf(c, new CdcTableId(path.getDatabaseName(), path.getObjectName())).schema();
        } catch (SQLException e) {
            throw failure("read table " + path.getFullName() + " of catalog '" + name() + "'", e);
        }
        Schema.Builder columns = Schema.newBuilder();
        for (CdcColumn column : schema.columns()) {
            DataType type = MySqlTypeMapping.toFlinkType(column.type(), column.name());
            columns.column(column.name(), column.nullable() ? type : type.notNull());
            if (column.comment() != null) {
                columns.withComment(column.comment());
            }
        }
        if (!schema.primaryKeys().isEmpty()) {
            columns.primaryKey(schema.primaryKeys());
        }
        Map<String, String> options = new LinkedHashMap<>(tableOptions);
        options.put(MySqlCdcOptions.DATABASE_NAME.key(), NameRegex.literal(path.getDatabaseName()));
        options.put(MySqlCdcOptions.TABLE_NAME.key(), NameRegex.literal(path.getObjectName()));
        return CatalogTable.newBuilder().schema(columns.build()).options(options).build();
    }

    private Connection connect() {
        return MySqlConnections.open(connection);
    }

    private CatalogException failure(String what, SQLException e) {
        return new CatalogException("Cannot " + what + " on MySQL server " + connection.address() + ": "
                + e.getMessage(), e);
    }
}
