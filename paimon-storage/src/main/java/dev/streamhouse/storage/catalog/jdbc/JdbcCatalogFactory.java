package dev.streamhouse.storage.catalog.jdbc;

import dev.streamhouse.storage.catalog.WarehouseTables;
import dev.streamhouse.storage.catalog.lock.CommitLock;
import dev.streamhouse.storage.options.CatalogOptions;
import dev.streamhouse.storage.options.Options;

import java.sql.SQLException;
import java.util.Map;
import java.util.Properties;

/**
 * Opens a {@link JdbcCatalog} from catalog options: {@code uri} (the JDBC URL, required), {@code jdbc.*}
 * (driver properties, prefix removed), {@code catalog-key}, {@code client-pool-size}, and the commit lock's
 * {@code lock.enabled}, {@code lock-acquire-timeout}, {@code lock-check-max-sleep}, {@code lock-key-max-length}. The driver comes from
 * the classpath (e.g. MySQL's, MariaDB's, PostgreSQL's or SQLite's jar in Flink's {@code lib/}).
 */
public final class JdbcCatalogFactory {
    public static final String JDBC_PREFIX = "jdbc.";

    private JdbcCatalogFactory() {}

    public static JdbcCatalog open(Options options, WarehouseTables tables) {
        String uri = options.get(CatalogOptions.URI);
        if (uri == null || uri.isBlank()) {
            throw new IllegalArgumentException("Cannot create catalog: metastore 'jdbc' needs option 'uri', the JDBC URL "
                    + "of the database that holds the catalog, e.g. 'jdbc:mysql://host:3306/paimon_catalog'");
        }
        uri = uri.trim();
        String catalogKey = options.get(CatalogOptions.CATALOG_KEY);
        String where = "the JDBC metastore " + withoutParameters(uri) + " (catalog-key '" + catalogKey + "')";
        JdbcErrors errors = new JdbcErrors(uri, where);
        Properties properties = new Properties();
        for (Map.Entry<String, String> setting : options.withPrefix(JDBC_PREFIX).entrySet()) {
            properties.setProperty(setting.getKey(), setting.getValue());
        }
        JdbcConnections connections = new JdbcConnections(uri, properties, options.get(CatalogOptions.CLIENT_POOL_SIZE));
        JdbcMetastore rows = new JdbcMetastore(connections, catalogKey);
        CommitLock.Factory locks = null;
        try {
            rows.createLayoutIfMissing();
            if (options.get(CatalogOptions.LOCK_ENABLED) == Boolean.TRUE) {
                locks = lockFactory(options, uri, properties, catalogKey, where);
                rows.createTableIfMissing(JdbcCommitLock.TABLE,
                        JdbcCommitLock.createTableStatement(options.get(CatalogOptions.LOCK_KEY_MAX_LENGTH)));
            }
        } catch (SQLException e) {
            connections.close();
            throw errors.failed("open", e, hint(e));
        } catch (RuntimeException e) {
            connections.close();
            throw e;
        }
        return new JdbcCatalog(tables, rows, connections, errors, locks);
    }

    private static CommitLock.Factory lockFactory(Options options, String uri, Properties properties,
                                                  String catalogKey, String where) {
        JdbcCommitLock.Dialect dialect = JdbcCommitLock.Dialect.of(uri);
        if (dialect == null) {
            throw new IllegalArgumentException("Cannot create catalog: 'lock.enabled' needs a MySQL, MariaDB, "
                    + "PostgreSQL or SQLite database behind 'uri' (the lock's expiry is written in their SQL), not "
                    + withoutParameters(uri));
        }
        return new JdbcCommitLock.Factory(uri, properties, catalogKey, where, dialect,
                options.get(CatalogOptions.LOCK_ACQUIRE_TIMEOUT), options.get(CatalogOptions.LOCK_CHECK_MAX_SLEEP),
                options.get(CatalogOptions.LOCK_KEY_MAX_LENGTH));
    }

    private static String hint(SQLException e) {
        String message = String.valueOf(e.getMessage());
        if (message.startsWith("No suitable driver")) {
            return "put the database's JDBC driver jar on the classpath, e.g. into Flink's lib/";
        }
        return "check 'uri', 'jdbc.user' and 'jdbc.password', and that the database is reachable";
    }

    /** The URL without its parameters, which may hold credentials. */
    static String withoutParameters(String uri) {
        int question = uri.indexOf('?');
        int semicolon = uri.indexOf(';');
        int cut = question < 0 ? semicolon : semicolon < 0 ? question : Math.min(question, semicolon);
        return cut < 0 ? uri : uri.substring(0, cut);
    }
}
