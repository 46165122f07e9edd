package dev.streamhouse.storage.catalog.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The rows a JDBC catalog keeps, in Apache Paimon's layout so that both stores can share one database:
 * {@code paimon_tables(catalog_key, database_name, table_name)} names each table, and
 * {@code paimon_database_properties(catalog_key, database_name, property_key, property_value)} holds each
 * database's properties ({@code exists} and {@code location} at least). Every statement is scoped by the
 * {@code catalog-key}, so several catalogs can share the tables. Table metadata itself stays in the warehouse.
 */
final class JdbcMetastore {
    static final String TABLES = "paimon_tables";
    static final String DATABASE_PROPERTIES = "paimon_database_properties";
    static final String EXISTS_PROPERTY = "exists";
    static final String LOCATION_PROPERTY = "location";

    private static final String CREATE_TABLES = "CREATE TABLE " + TABLES + "("
            + "catalog_key VARCHAR(255) NOT NULL, database_name VARCHAR(255) NOT NULL, "
            + "table_name VARCHAR(255) NOT NULL, PRIMARY KEY (catalog_key, database_name, table_name))";
    private static final String CREATE_DATABASE_PROPERTIES = "CREATE TABLE " + DATABASE_PROPERTIES + "("
            + "catalog_key VARCHAR(255) NOT NULL, database_name VARCHAR(255) NOT NULL, "
            + "property_key VARCHAR(255), property_value VARCHAR(1000), "
            + "PRIMARY KEY (catalog_key, database_name, property_key))";

    private final JdbcConnections connections;
    private final String catalogKey;

    JdbcMetastore(JdbcConnections connections, String catalogKey) {
        this.connections = connections;
        this.catalogKey = catalogKey;
    }

    /** Creates the two tables where they are missing (another catalog may be creating them at the same time). */
    void createLayoutIfMissing() throws SQLException {
        createTableIfMissing(TABLES, CREATE_TABLES);
        createTableIfMissing(DATABASE_PROPERTIES, CREATE_DATABASE_PROPERTIES);
    }

    /** Runs {@code createStatement} unless table {@code name} exists (or appears meanwhile). */
    void createTableIfMissing(String name, String createStatement) throws SQLException {
        connections.run(c -> {
            if (!tableExists(c, name)) {
                try (Statement statement = c.createStatement()) {
                    statement.execute(createStatement);
                } catch (SQLException e) {
                    if (!tableExists(c, name)) {
                        throw e;
                    }
                }
            }
            return null;
        });
    }

    /**
     * Whether the statements below find table {@code name}: a query of it, not the driver's metadata, whose
     * search without a catalog also finds tables of other databases on the same server (MariaDB's does).
     */
    private static boolean tableExists(Connection c, String name) {
        try (Statement probe = c.createStatement()) {
            probe.executeQuery("SELECT 1 FROM " + name + " WHERE 1 = 0").close();
            return true;
        } catch (SQLException e) {
            return false;
        }
    }

    List<String> databases() throws SQLException {
        TreeSet<String> names = new TreeSet<>();
        names.addAll(strings("SELECT DISTINCT database_name FROM " + TABLES + " WHERE catalog_key = ?", catalogKey));
        names.addAll(strings("SELECT DISTINCT database_name FROM " + DATABASE_PROPERTIES + " WHERE catalog_key = ?",
                catalogKey));
        return new ArrayList<>(names);
    }

    boolean databaseExists(String database) throws SQLException {
        return !strings("SELECT database_name FROM " + DATABASE_PROPERTIES
                + " WHERE catalog_key = ? AND database_name = ?", catalogKey, database).isEmpty()
                || !tables(database).isEmpty();
    }

    /** Inserts the database's property rows in one transaction; false if one of them existed already. */
    boolean insertDatabase(String database, Map<String, String> properties) throws SQLException {
        return connections.run(c -> {
            boolean autoCommit = c.getAutoCommit();
            c.setAutoCommit(false);
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO " + DATABASE_PROPERTIES
                    + " (catalog_key, database_name, property_key, property_value) VALUES (?, ?, ?, ?)")) {
                for (Map.Entry<String, String> property : properties.entrySet()) {
                    insert.setString(1, catalogKey);
                    insert.setString(2, database);
                    insert.setString(3, property.getKey());
                    insert.setString(4, property.getValue());
                    insert.addBatch();
                }
                insert.executeBatch();
                c.commit();
                return true;
            } catch (SQLException e) {
                c.rollback();
                if (databaseExists(database)) {
                    return false;
                }
                throw e;
            } finally {
                c.setAutoCommit(autoCommit);
            }
        });
    }

    /** Deletes the database's rows: its tables' names and its properties. */
    void deleteDatabase(String database) throws SQLException {
        update("DELETE FROM " + TABLES + " WHERE catalog_key = ? AND database_name = ?", catalogKey, database);
        update("DELETE FROM " + DATABASE_PROPERTIES + " WHERE catalog_key = ? AND database_name = ?",
                catalogKey, database);
    }

    List<String> tables(String database) throws SQLException {
        List<String> names = strings("SELECT table_name FROM " + TABLES
                + " WHERE catalog_key = ? AND database_name = ?", catalogKey, database);
        names.sort(null);
        return names;
    }

    boolean tableExists(String database, String table) throws SQLException {
        return !strings("SELECT table_name FROM " + TABLES
                + " WHERE catalog_key = ? AND database_name = ? AND table_name = ?", catalogKey, database, table)
                .isEmpty();
    }

    /** @return false if the row existed already */
    boolean insertTable(String database, String table) throws SQLException {
        try {
            update("INSERT INTO " + TABLES + " (catalog_key, database_name, table_name) VALUES (?, ?, ?)",
                    catalogKey, database, table);
            return true;
        } catch (SQLException e) {
            if (tableExists(database, table)) {
                return false;
            }
            throw e;
        }
    }

    /** @return false if there was no such row */
    boolean deleteTable(String database, String table) throws SQLException {
        return update("DELETE FROM " + TABLES + " WHERE catalog_key = ? AND database_name = ? AND table_name = ?",
                catalogKey, database, table) > 0;
    }

    /**
     * @return false if the target row exists already
     * @throws SQLException also when the source row is gone
     */
    boolean renameTable(String database, String from, String to) throws SQLException {
        int updated;
        try {
            updated = update("UPDATE " + TABLES + " SET table_name = ? "
                    + "WHERE catalog_key = ? AND database_name = ? AND table_name = ?", to, catalogKey, database, from);
        } catch (SQLException e) {
            if (tableExists(database, to)) {
                return false;
            }
            throw e;
        }
        if (updated == 0) {
            throw new SQLException("no row for table '" + database + "." + from + "' (dropped concurrently)");
        }
        return true;
    }

    private List<String> strings(String sql, String... parameters) throws SQLException {
        return connections.run(c -> {
            try (PreparedStatement statement = c.prepareStatement(sql)) {
                bind(statement, parameters);
                List<String> out = new ArrayList<>();
                try (ResultSet rows = statement.executeQuery()) {
                    while (rows.next()) {
                        out.add(rows.getString(1));
                    }
                }
                return out;
            }
        });
    }

    private int update(String sql, String... parameters) throws SQLException {
        return connections.run(c -> {
            try (PreparedStatement statement = c.prepareStatement(sql)) {
                bind(statement, parameters);
                return statement.executeUpdate();
            }
        });
    }

    private static void bind(PreparedStatement statement, String... parameters) throws SQLException {
        for (int i = 0; i < parameters.length; i++) {
            statement.setString(i + 1, parameters[i]);
        }
    }
}
