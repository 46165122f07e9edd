package dev.streamhouse.flink.cdc.sql;

import dev.streamhouse.flink.cdc.event.CdcTableId;
import dev.streamhouse.flink.cdc.sql.SessionCatalogs.CatalogDefinition;
import dev.streamhouse.flink.cdc.sync.SyncJob;
import dev.streamhouse.flink.cdc.sync.SyncSettings;
import dev.streamhouse.flink.cdc.testing.MariaDbExtension;
import dev.streamhouse.storage.catalog.Catalog;
import dev.streamhouse.storage.catalog.CatalogFactory;
import dev.streamhouse.storage.catalog.Identifier;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.schema.Schema;
import dev.streamhouse.storage.types.DataTypes;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Sync statements resolved against a session's catalogs and checked against a private MariaDB and a
 * warehouse: the job's source options, target and table options, and each mistake refused with a
 * message naming it.
 */
class SyncStatementPlannerITCase {
    @RegisterExtension
    static final MariaDbExtension MARIADB = new MariaDbExtension();

    @TempDir
    Path warehouse;

    private final Map<String, CatalogDefinition> catalogs = new HashMap<>();
    private String currentCatalog = "paimon";
    private String currentDatabase = "default";

    @BeforeAll
    static void createTables() {
        MARIADB.execute("CREATE DATABASE shop", "CREATE TABLE shop.orders (id INT PRIMARY KEY, v INT)",
                "CREATE TABLE shop.orders_2 (id INT PRIMARY KEY, v INT)", "CREATE TABLE shop.tmp_x (id INT PRIMARY KEY)",
                "CREATE TABLE shop.logs (line TEXT)");
    }

    @BeforeEach
    void defineCatalogs() {
        catalogs.put("paimon", new CatalogDefinition("paimon", Map.of("warehouse", warehouse.toUri().toString(),
                "table-default.bucket", "2", "table-default.snapshot.num-retained.min", "7")));
        catalogs.put("mysql", new CatalogDefinition("mysql", Map.of("hostname", MARIADB.host(), "port",
                Integer.toString(MARIADB.port()), "username", MariaDbExtension.CDC_USER, "password",
                MariaDbExtension.CDC_PASSWORD, "server-time-zone", "UTC", "default-database", "shop")));
        catalogs.put("default_catalog", new CatalogDefinition(null, Map.of()));
        catalogs.put("other", new CatalogDefinition("generic_in_memory", Map.of()));
    }

    private final SessionCatalogs session = new SessionCatalogs() {
        @Override
        public String currentCatalog() {
            return currentCatalog;
        }

        @Override
        public String currentDatabase() {
            return currentDatabase;
        }

        @Override
        public Optional<CatalogDefinition> catalog(String name) {
            return Optional.ofNullable(catalogs.get(name));
        }
    };

    private SyncJob plan(String sql) {
        return new SyncStatementPlanner(session).plan(SyncStatementParser.parse(sql).orElseThrow(), "streaming");
    }

    private Catalog warehouseCatalog() {
        return CatalogFactory.createCatalog(new Options(Map.of("warehouse", warehouse.toUri().toString())));
    }

    @Test
    void aTableSyncTakesTheSourceCatalogsConnectionAndTheStatementsOptions() {
        SyncJob job = plan("CREATE TABLE ods.orders (PRIMARY KEY (id) NOT ENFORCED) PARTITIONED BY (v) "
                + "WITH ('bucket' = '4', 'sink.parallelism' = '3') AS TABLE mysql.shop.`orders(_[0-9])?` "
                + "/*+ OPTIONS('server-id' = '5500-5510', 'port' = '" + MARIADB.port() + "') */");

        assertThat(job.name()).isEqualTo("MySQL-Paimon Table Sync: ods.orders");
        assertThat(job.sourceConf()).containsExactlyInAnyOrderEntriesOf(Map.of("hostname", MARIADB.host(), "port",
                Integer.toString(MARIADB.port()), "username", MariaDbExtension.CDC_USER, "password",
                MariaDbExtension.CDC_PASSWORD, "server-time-zone", "UTC", "database-name", "shop", "table-name",
                "orders(_[0-9])?", "server-id", "5500-5510"));
        assertThat(job.sinkParallelism()).isEqualTo(3);
        SyncSettings settings = job.settings();
        assertThat(settings.singleTable()).isTrue();
        assertThat(settings.target(null)).isEqualTo(Identifier.of("ods", "orders"));
        assertThat(settings.primaryKeys()).containsExactly("id");
        assertThat(settings.partitionKeys()).containsExactly("v");
        // table-default.* of the catalog, overridden by WITH; sink.parallelism is no table option.
        assertThat(settings.tableOptions()).containsExactlyInAnyOrderEntriesOf(Map.of("bucket", "4", "snapshot.num-retained.min", "7"));
        assertThat(settings.catalogOptions()).containsEntry("warehouse", warehouse.toUri().toString());
        try (Catalog catalog = warehouseCatalog()) {
            assertThat(catalog.databaseExists("ods")).as("the target database is created at once").isTrue();
        }
    }

    @Test
    void aDatabaseSyncReadsOnlyTheTablesItTakes() {
        currentCatalog = "mysql";
        currentDatabase = "shop";
        SyncJob job = plan("CREATE DATABASE IF NOT EXISTS paimon.ods AS DATABASE shop "
                + "INCLUDING TABLE 'orders.*|tmp_.*' EXCLUDING TABLE 'tmp_.*'");

        assertThat(job.name()).isEqualTo("MySQL-Paimon Database Sync: ods");
        assertThat(job.sourceConf()).containsEntry("database-name", "shop");
        Pattern tables = Pattern.compile(job.sourceConf().get("table-name"));
        assertThat(tables.matcher("orders").matches()).isTrue();
        assertThat(tables.matcher("orders_2").matches()).isTrue();
        assertThat(tables.matcher("tmp_x").matches()).isFalse();
        assertThat(tables.matcher("logs").matches()).isFalse();
        SyncSettings settings = job.settings();
        assertThat(settings.singleTable()).isFalse();
        assertThat(settings.includes(new CdcTableId("shop", "orders_2"))).isTrue();
        assertThat(settings.includes(new CdcTableId("shop", "tmp_x"))).isFalse();
        assertThat(settings.target(new CdcTableId("shop", "orders_2"))).isEqualTo(Identifier.of("ods", "orders_2"));
        assertThat(settings.tableOptions()).containsExactlyInAnyOrderEntriesOf(Map.of("bucket", "2", "snapshot.num-retained.min", "7"));
        assertThat(job.sinkParallelism()).isNull();

        // INCLUDING ALL TABLES reads every table of the database.
        assertThat(plan("CREATE DATABASE IF NOT EXISTS paimon.ods AS DATABASE shop INCLUDING ALL TABLES").sourceConf())
                .doesNotContainKey("table-name");
    }

    @Test
    void mistakesAreNamed() {
        try (Catalog catalog = warehouseCatalog()) {
            catalog.createDatabase("ods", false);
            catalog.createTable(Identifier.of("ods", "done"), Schema.newBuilder().column("id", DataTypes.INT())
                    .build(), false);
        }
        assertRefused("CREATE TABLE ods.t AS TABLE nowhere.shop.orders",
                "Cannot run CREATE TABLE ... AS TABLE: there is no source catalog 'nowhere'; create it with CREATE "
                        + "CATALOG nowhere WITH ('type' = 'mysql'");
        assertRefused("CREATE TABLE ods.t AS TABLE paimon.ods.done", "source catalog 'paimon' is of type 'paimon', "
                + "not a MySQL catalog ('type' = 'mysql')");
        assertRefused("CREATE TABLE other.ods.t AS TABLE mysql.shop.orders", "target catalog 'other' is of type "
                + "'generic_in_memory'; a sync writes Paimon tables into a catalog of 'type' = 'paimon'");
        assertRefused("CREATE TABLE default_catalog.d.t AS TABLE mysql.shop.orders", "target catalog "
                + "'default_catalog' is not one created with CREATE CATALOG");
        assertRefused("CREATE TABLE nope.d.t AS TABLE mysql.shop.orders", "there is no target catalog 'nope'");
        assertRefused("CREATE TABLE ods.t AS TABLE mysql.shops.orders", "there is no database 'shops' on MySQL "
                + "server " + MARIADB.host() + ":" + MARIADB.port() + " (catalog 'mysql')");
        assertRefused("CREATE TABLE ods.t AS TABLE mysql.`sh.p_[0-9]`.orders", "no database matches 'sh.p_[0-9]'");
        assertRefused("CREATE TABLE ods.t AS TABLE mysql.shop.order", "there is no table 'order' in MySQL "
                + "database(s) [shop]");
        assertRefused("CREATE TABLE ods.t AS TABLE mysql.shop.logs", "MySQL table shop.logs (of mysql.shop.logs) has "
                + "no primary key; declare the target's key: CREATE TABLE ods.t (PRIMARY KEY (...) NOT ENFORCED)");
        assertRefused("CREATE TABLE ods.t AS TABLE mysql.shop.`orders[`", "invalid regular expression 'orders[' for "
                + "the source table");
        assertRefused("CREATE DATABASE ods2 AS DATABASE mysql.shop INCLUDING TABLE '(' ", "invalid regular "
                + "expression '(' for INCLUDING TABLE");
        assertRefused("CREATE TABLE ods.done AS TABLE mysql.shop.orders", "table paimon.ods.done already exists; "
                + "CREATE TABLE IF NOT EXISTS ... AS TABLE continues syncing into it");
        assertRefused("CREATE DATABASE ods AS DATABASE mysql.shop INCLUDING ALL TABLES", "database paimon.ods already "
                + "exists; CREATE DATABASE IF NOT EXISTS ... AS DATABASE continues");
        assertRefused("CREATE TABLE ods.t AS TABLE mysql.shop.orders /*+ OPTIONS('table-name' = 'x') */",
                "option 'table-name' cannot be given in the hint");
        assertRefused("CREATE TABLE ods.t AS TABLE mysql.shop.orders /*+ OPTIONS('sever-id' = '1') */",
                "Unknown source OPTIONS hint option(s) [sever-id]");
        assertRefused("CREATE TABLE ods.t WITH ('sink.parallelism' = 'x') AS TABLE mysql.shop.orders",
                "WITH option sink.parallelism=x is not a positive number");
        catalogs.put("mysql_bad", new CatalogDefinition("mysql", Map.of("hostname", MARIADB.host(), "port",
                Integer.toString(MARIADB.port()), "username", MariaDbExtension.CDC_USER, "password", "wrong")));
        assertThatThrownBy(() -> plan("CREATE TABLE ods.t AS TABLE mysql_bad.shop.orders"))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("access denied for user 'cdc_user'");
        currentDatabase = null;
        assertRefused("CREATE TABLE t AS TABLE mysql.shop.orders", "the target table's name has no database and the "
                + "session has no current database");
        assertThatThrownBy(() -> new SyncStatementPlanner(session).plan(SyncStatementParser.parse(
                "CREATE TABLE ods.t AS TABLE mysql.shop.orders").orElseThrow(), "BATCH"))
                .hasMessage("Cannot run CREATE TABLE ... AS TABLE in batch mode: it starts a streaming sync job that "
                        + "runs until it is stopped; SET 'execution.runtime-mode' = 'streaming' first");
        try (Catalog catalog = warehouseCatalog()) {
            assertThat(catalog.listDatabases()).as("nothing created by refused statements").containsOnly("ods");
        }
    }

    private void assertRefused(String sql, String message) {
        assertThatThrownBy(() -> plan(sql)).as(sql).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(message);
    }
}
