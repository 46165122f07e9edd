package dev.streamhouse.flink.cdc.sql;

import dev.streamhouse.flink.catalog.FlinkCatalogFactory;
import dev.streamhouse.flink.catalog.FlinkCatalogOptions;
import dev.streamhouse.flink.cdc.catalog.KafkaCatalogFactory;
import dev.streamhouse.flink.cdc.catalog.MySqlCatalogFactory;
import dev.streamhouse.flink.cdc.event.CdcEvent;
import dev.streamhouse.flink.cdc.mysql.CapturedTable;
import dev.streamhouse.flink.cdc.mysql.MySqlConnections;
import dev.streamhouse.flink.cdc.mysql.NameRegex;
import dev.streamhouse.flink.cdc.mysql.ServerChecks;
import dev.streamhouse.flink.cdc.mysql.TableDiscovery;
import dev.streamhouse.flink.cdc.source.CdcDeserializer;
import dev.streamhouse.flink.cdc.source.MySqlSourceConfig;
import dev.streamhouse.flink.cdc.sql.SessionCatalogs.CatalogDefinition;
import dev.streamhouse.flink.cdc.sql.SyncStatement.CreateDatabaseAsDatabase;
import dev.streamhouse.flink.cdc.sql.SyncStatement.CreateTableAsTable;
import dev.streamhouse.flink.cdc.sync.SyncJob;
import dev.streamhouse.flink.cdc.sync.SyncSettings;
import dev.streamhouse.flink.cdc.table.MySqlCdcOptions;
import dev.streamhouse.flink.cdc.table.MySqlSourceConfigs;
import dev.streamhouse.storage.catalog.Catalog;
import dev.streamhouse.storage.catalog.CatalogFactory;
import dev.streamhouse.storage.catalog.Identifier;
import dev.streamhouse.storage.options.Options;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import java.util.stream.Collectors;

/**
 * Turns a {@link SyncStatement} into the {@link SyncJob} it starts, resolved against the session's
 * catalogs: the target catalog must be a {@code 'type' = 'paimon'} catalog (its options become the
 * sync's catalog options, its {@code table-default.*} options the defaults of the tables it creates),
 * the source catalog a {@code 'type' = 'mysql'} one (its connection options, the statement's source
 * names as {@code database-name} / {@code table-name} regular expressions and the hint's options
 * become the source's options) or a {@code 'type' = 'kafka'} one (its options, the topic or the
 * INCLUDING / EXCLUDING topics and the hint's options become the {@code --kafka_conf};
 * {@link KafkaSourceOptions}). {@code WITH} options are the options of the created tables, but
 * {@code sink.parallelism}, the writers' parallelism.
 *
 * <p>Before the job is built it checks, each failure naming what to fix: streaming mode, both
 * catalogs, the regular expressions, the MySQL server (connection, binlog settings, privileges), that
 * the source database (and for a table sync a source table, with a primary key unless the statement
 * declares one) exists, and that the target does not exist unless {@code IF NOT EXISTS} is given
 * (then the sync continues it). It then creates the target database when missing, so the session can
 * use it at once; the job creates the tables when their first change arrives.
 */
public final class SyncStatementPlanner {
    private static final Set<String> FROM_STATEMENT =
            Set.of(MySqlCdcOptions.DATABASE_NAME.key(), MySqlCdcOptions.TABLE_NAME.key());

    private final SessionCatalogs catalogs;

    public SyncStatementPlanner(SessionCatalogs catalogs) {
        this.catalogs = catalogs;
    }

    /**
     * @param runtimeMode the session's {@code execution.runtime-mode}
     * @throws IllegalArgumentException naming what is wrong with the statement or the session
     * @throws IllegalStateException when the MySQL server or the warehouse cannot be used
     */
    public SyncJob plan(SyncStatement statement, String runtimeMode) {
        String kind = statement.kind();
        if ("batch".equalsIgnoreCase(runtimeMode)) {
            throw new IllegalArgumentException("Cannot run " + kind + " in batch mode: it starts a streaming sync "
                    + "job that runs until it is stopped; SET 'execution.runtime-mode' = 'streaming' first");
        }
        return statement instanceof CreateTableAsTable ctas ? planTableSync(ctas) : planDatabaseSync(
                (CreateDatabaseAsDatabase) statement);
    }

    private SyncJob planTableSync(CreateTableAsTable s) {
        String kind = s.kind();
        String catalogName = part(s.target(), 3, 0, catalogs::currentCatalog);
        String database = part(s.target(), 3, 1, () -> currentDatabase(kind, "target"));
        String table = s.target().get(s.target().size() - 1);
        Map<String, String> target = targetCatalog(kind, catalogName);

        String sourceCatalog = part(s.source(), 3, 0, catalogs::currentCatalog);
        String sourceDatabase = part(s.source(), 3, 1, () -> currentDatabase(kind, "source"));
        String sourceTable = s.source().get(s.source().size() - 1);
        CatalogDefinition sourceDefinition = sourceCatalog(kind, sourceCatalog);
        if (KafkaCatalogFactory.IDENTIFIER.equals(sourceDefinition.type())) {
            Map<String, String> kafkaConf = KafkaSourceOptions.forTopic(kind, sourceCatalog, sourceDefinition,
                    sourceDatabase, sourceTable, s.sourceOptions(), "streamhouse-sync-" + database + "." + table);
            return tableSync(s, SyncJob.Source.KAFKA, kafkaConf, catalogName, target, database, table);
        }
        Map<String, String> mysqlConf = sourceOptions(kind, sourceDefinition, s.sourceOptions());
        mysqlConf.put(MySqlCdcOptions.DATABASE_NAME.key(), regex(kind, sourceDatabase, "the source database"));
        mysqlConf.put(MySqlCdcOptions.TABLE_NAME.key(), regex(kind, sourceTable, "the source table"));

        List<CapturedTable> tables = checkSource(kind, sourceCatalog, mysqlConf, true);
        String source = sourceCatalog + "." + sourceDatabase + "." + sourceTable;
        if (s.primaryKeys().isEmpty()) {
            for (CapturedTable t : tables) {
                if (t.schema().primaryKeys().isEmpty()) {
                    throw new IllegalArgumentException("Cannot run " + kind + ": MySQL table " + t.schema().table()
                            + " (of " + source + ") has no primary key; declare the target's key: CREATE TABLE "
                            + String.join(".", s.target()) + " (PRIMARY KEY (...) NOT ENFORCED) AS TABLE " + source);
                }
            }
        }

        return tableSync(s, SyncJob.Source.MYSQL, mysqlConf, catalogName, target, database, table);
    }

    private SyncJob tableSync(CreateTableAsTable s, SyncJob.Source source, Map<String, String> sourceConf,
            String catalogName, Map<String, String> target, String database, String table) {
        String kind = s.kind();
        Map<String, String> tableOptions = tableOptions(target, s.options());
        Integer sinkParallelism = SyncJob.removeSinkParallelism(tableOptions, "WITH option");
        SyncSettings settings = SyncSettings.builder().catalogOptions(target).database(database).table(table)
                .primaryKeys(s.primaryKeys()).partitionKeys(s.partitionKeys()).tableOptions(tableOptions)
                .keylessAsAppend(source == SyncJob.Source.KAFKA).build();
        try (Catalog warehouse = warehouse(kind, catalogName, target)) {
            if (!s.ifNotExists() && warehouse.tableExists(Identifier.of(database, table))) {
                throw new IllegalArgumentException("Cannot run " + kind + ": table " + catalogName + "." + database
                        + "." + table + " already exists; CREATE TABLE IF NOT EXISTS ... AS TABLE continues syncing "
                        + "into it");
            }
            warehouse.createDatabase(database, true);
        }
        return new SyncJob(SyncJob.tableSyncName(source, database, table), source, sourceConf, settings,
                sinkParallelism);
    }

    private SyncJob planDatabaseSync(CreateDatabaseAsDatabase s) {
        String kind = s.kind();
        if (s.target().size() > 2 || s.source().size() > 2) {
            throw new IllegalArgumentException("Cannot run " + kind + ": a database is named [catalog.]database, not "
                    + String.join(".", s.target().size() > 2 ? s.target() : s.source()));
        }
        String catalogName = part(s.target(), 2, 0, catalogs::currentCatalog);
        String database = s.target().get(s.target().size() - 1);
        Map<String, String> target = targetCatalog(kind, catalogName);

        String sourceCatalog = part(s.source(), 2, 0, catalogs::currentCatalog);
        String sourceDatabase = s.source().get(s.source().size() - 1);
        CatalogDefinition sourceDefinition = sourceCatalog(kind, sourceCatalog);
        String including = s.including() == null ? null : regex(kind, s.including(), "INCLUDING TABLE");
        String excluding = s.excluding() == null ? null : regex(kind, s.excluding(), "EXCLUDING TABLE");
        // The source reads only the tables the sync takes (the snapshot too), new ones included.
        String tables = (excluding == null ? "" : "(?!(?:" + excluding + ")$)")
                + (including == null ? ".*" : "(?:" + including + ")");
        SyncJob.Source source;
        Map<String, String> sourceConf;
        SyncSettings.Builder settings = SyncSettings.builder();
        if (KafkaCatalogFactory.IDENTIFIER.equals(sourceDefinition.type())) {
            // The kafka catalog's tables are topics: INCLUDING / EXCLUDING choose topics; the rows of each go
            // to the tables their records name, as in kafka_sync_database.
            source = SyncJob.Source.KAFKA;
            sourceConf = KafkaSourceOptions.forTopics(kind, sourceCatalog, sourceDefinition, sourceDatabase, tables,
                    s.sourceOptions(), "streamhouse-sync-" + database);
            settings.keylessAsAppend(true);
        } else {
            source = SyncJob.Source.MYSQL;
            sourceConf = sourceOptions(kind, sourceDefinition, s.sourceOptions());
            sourceConf.put(MySqlCdcOptions.DATABASE_NAME.key(), regex(kind, sourceDatabase, "the source database"));
            if (including != null || excluding != null) {
                sourceConf.put(MySqlCdcOptions.TABLE_NAME.key(), tables);
            }
            checkSource(kind, sourceCatalog, sourceConf, false);
            settings.including(including).excluding(excluding);
        }

        Map<String, String> tableOptions = tableOptions(target, s.options());
        Integer sinkParallelism = SyncJob.removeSinkParallelism(tableOptions, "WITH option");
        settings.catalogOptions(target).database(database).tableOptions(tableOptions);
        try (Catalog warehouse = warehouse(kind, catalogName, target)) {
            if (!s.ifNotExists() && warehouse.databaseExists(database)) {
                throw new IllegalArgumentException("Cannot run " + kind + ": database " + catalogName + "." + database
                        + " already exists; CREATE DATABASE IF NOT EXISTS ... AS DATABASE continues syncing into it");
            }
            warehouse.createDatabase(database, true);
        }
        return new SyncJob(SyncJob.databaseSyncName(source, database), source, sourceConf, settings.build(),
                sinkParallelism);
    }

    /**
     * Part {@code index} of a name of up to {@code parts} parts (catalog, database, table): as written, or
     * the session's current one where the name leaves it out.
     */
    private static String part(List<String> name, int parts, int index, Supplier<String> current) {
        int missing = parts - name.size();
        return index < missing ? current.get() : name.get(index - missing);
    }

    private String currentDatabase(String kind, String which) {
        String database = catalogs.currentDatabase();
        if (database == null) {
            throw new IllegalArgumentException("Cannot run " + kind + ": the " + which + " table's name has no "
                    + "database and the session has no current database; name it as catalog.database.table");
        }
        return database;
    }

    /** The target catalog's options (without 'type'), checked to be a Paimon catalog's. */
    private Map<String, String> targetCatalog(String kind, String name) {
        CatalogDefinition definition = catalogs.catalog(name).orElseThrow(() -> new IllegalArgumentException(
                "Cannot run " + kind + ": there is no target catalog '" + name + "' (SHOW CATALOGS lists them)"));
        if (!FlinkCatalogFactory.IDENTIFIER.equals(definition.type())) {
            throw new IllegalArgumentException("Cannot run " + kind + ": target catalog '" + name + "' is "
                    + (definition.type() == null ? "not one created with CREATE CATALOG" : "of type '"
                    + definition.type() + "'") + "; a sync writes Paimon tables into a catalog of 'type' = '"
                    + FlinkCatalogFactory.IDENTIFIER + "' (e.g. paimon.ods)");
        }
        return new LinkedHashMap<>(definition.options());
    }

    /** The source catalog's definition, checked to be a MySQL or a Kafka catalog's. */
    private CatalogDefinition sourceCatalog(String kind, String name) {
        CatalogDefinition definition = catalogs.catalog(name).orElseThrow(() -> new IllegalArgumentException(
                "Cannot run " + kind + ": there is no source catalog '" + name + "'; create it with CREATE CATALOG "
                        + name + " WITH ('type' = 'mysql', 'hostname' = '...', 'port' = '3306', 'username' = '...', "
                        + "'password' = '...') or WITH ('type' = 'kafka', 'properties.bootstrap.servers' = '...', "
                        + "'value.format' = '...')"));
        if (!MySqlCatalogFactory.IDENTIFIER.equals(definition.type())
                && !KafkaCatalogFactory.IDENTIFIER.equals(definition.type())) {
            throw new IllegalArgumentException("Cannot run " + kind + ": source catalog '" + name + "' is "
                    + (definition.type() == null ? "not one created with CREATE CATALOG" : "of type '"
                    + definition.type() + "'") + ", not a MySQL catalog ('type' = '" + MySqlCatalogFactory.IDENTIFIER
                    + "') or a Kafka catalog ('type' = '" + KafkaCatalogFactory.IDENTIFIER + "')");
        }
        return definition;
    }

    /** The MySQL catalog's connection options and the hint's options. */
    private Map<String, String> sourceOptions(String kind, CatalogDefinition definition, Map<String, String> hint) {
        Map<String, String> options = new LinkedHashMap<>();
        definition.options().forEach((key, value) -> {
            if (MySqlSourceConfigs.REQUIRED.stream().anyMatch(o -> o.key().equals(key))
                    || key.equals(MySqlCdcOptions.PORT.key()) || key.equals(MySqlCdcOptions.SERVER_TIME_ZONE.key())
                    || key.startsWith(MySqlCdcOptions.JDBC_PREFIX)) {
                options.put(key, value);
            }
        });
        for (Map.Entry<String, String> e : hint.entrySet()) {
            if (FROM_STATEMENT.contains(e.getKey())) {
                throw new IllegalArgumentException("Cannot run " + kind + ": option '" + e.getKey() + "' cannot be "
                        + "given in the hint; the statement's source names the MySQL database and tables");
            }
            options.put(e.getKey(), e.getValue());
        }
        return options;
    }

    private static String regex(String kind, String regex, String what) {
        try {
            Pattern.compile(regex);
            return regex;
        } catch (PatternSyntaxException e) {
            throw new IllegalArgumentException("Cannot run " + kind + ": invalid regular expression '" + regex
                    + "' for " + what + ": " + e.getDescription());
        }
    }

    /**
     * Connects to the source's server and checks it can be synced from: binlog settings, privileges,
     * and that the source database exists (for a table sync: that a table matches).
     */
    private List<CapturedTable> checkSource(String kind, String catalog, Map<String, String> mysqlConf,
            boolean tableSync) {
        MySqlSourceConfig config = MySqlSourceConfigs.<CdcEvent>builder(mysqlConf, "source OPTIONS hint")
                .deserializer(CdcDeserializer.events()).build().config();
        String server = "MySQL server " + config.address() + " (catalog '" + catalog + "')";
        try (Connection connection = MySqlConnections.open(config)) {
            ServerChecks.check(connection, config);
            String databaseRegex = config.databaseRegex();
            List<String> databases = TableDiscovery.databases(connection).stream()
                    .filter(d -> Pattern.matches(databaseRegex, d)).collect(Collectors.toList());
            if (databases.isEmpty()) {
                throw new IllegalArgumentException("Cannot run " + kind + ": " + missing("database", databaseRegex)
                        + " on " + server + " (or user '" + config.username() + "' may not see it)");
            }
            List<CapturedTable> tables =
                    tableSync ? TableDiscovery.capturedTableDetails(connection, config) : List.of();
            if (tableSync && tables.isEmpty()) {
                throw new IllegalArgumentException("Cannot run " + kind + ": " + missing("table", config.tableRegex())
                        + " in MySQL database(s) " + databases + " on " + server);
            }
            return tables;
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot run " + kind + ": cannot read " + server + ": " + e.getMessage(),
                    e);
        }
    }

    /** "there is no table 'x'" for a plain name, "no table matches 'x.*'" for a pattern. */
    private static String missing(String what, String regex) {
        return NameRegex.isLiteral(regex) ? "there is no " + what + " '" + regex + "'"
                : "no " + what + " matches '" + regex + "'";
    }

    /** The catalog's {@code table-default.*} options overridden by the statement's. */
    private static Map<String, String> tableOptions(Map<String, String> catalogOptions, Map<String, String> with) {
        Map<String, String> options = new HashMap<>(FlinkCatalogOptions.tableDefaults(catalogOptions));
        options.putAll(with);
        return options;
    }

    private static Catalog warehouse(String kind, String name, Map<String, String> options) {
        try {
            return CatalogFactory.createCatalog(new Options(options));
        } catch (RuntimeException e) {
            throw new IllegalStateException("Cannot run " + kind + ": cannot open the warehouse of catalog '" + name
                    + "': " + e.getMessage(), e);
        }
    }
}
