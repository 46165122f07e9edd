package dev.streamhouse.flink.cdc.catalog;

import dev.streamhouse.flink.cdc.testing.AllTypes;
import dev.streamhouse.flink.cdc.testing.MariaDbExtension;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.TableResult;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.table.catalog.Catalog;
import org.apache.flink.table.catalog.CatalogBaseTable;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.apache.flink.util.CollectionUtil;
import org.apache.flink.util.ExceptionUtils;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The {@code mysql} catalog against a private MariaDB: databases and tables listed (system databases
 * left out, tables created later seen at once), a table's Flink schema (mapped types, NOT NULL, primary
 * key) and {@code mysql-cdc} options without the password, a streaming SELECT of a catalog table (its
 * snapshot, then its changes), a plain Flink {@code CREATE TABLE ... AS SELECT} from it into the
 * {@code paimon} catalog (a fixed schema: Flink's CTAS follows no column changes), refused DDL and
 * writes, and wrong catalog options.
 */
class MySqlCatalogITCase {
    @RegisterExtension
    static final MariaDbExtension MARIADB = new MariaDbExtension();

    @RegisterExtension
    static final MiniClusterExtension FLINK = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(4).build());

    @TempDir
    Path warehouse;

    @BeforeAll
    static void createTables() {
        MARIADB.execute("SET GLOBAL time_zone = '+00:00'", "CREATE DATABASE shop", "CREATE DATABASE `odd.db`",
                "CREATE TABLE shop.orders (id INT PRIMARY KEY, customer VARCHAR(20) NOT NULL COMMENT 'who', "
                        + "amount DECIMAL(10, 2), placed DATETIME(3))",
                "INSERT INTO shop.orders VALUES (1, 'alice', 12.50, '2024-01-02 03:04:05.123'), "
                        + "(2, 'bob', NULL, NULL)",
                "CREATE TABLE shop.all_types (" + AllTypes.MYSQL_COLUMNS + ")",
                "CREATE TABLE shop.no_key (v INT)", "CREATE VIEW shop.big_orders AS SELECT * FROM shop.orders",
                "CREATE TABLE `odd.db`.`t$1` (k INT PRIMARY KEY, v INT)", "INSERT INTO `odd.db`.`t$1` VALUES (7, 8)");
    }

    private static String mysqlCatalog(String name, String... extra) {
        StringBuilder s = new StringBuilder("CREATE CATALOG " + name + " WITH ('type' = 'mysql', 'hostname' = '"
                + MARIADB.host() + "', 'port' = '" + MARIADB.port() + "', 'username' = '" + MariaDbExtension.CDC_USER
                + "', 'password' = '" + MariaDbExtension.CDC_PASSWORD + "', 'server-time-zone' = 'UTC'");
        for (String e : extra) {
            s.append(", ").append(e);
        }
        return s.append(")").toString();
    }

    private static StreamTableEnvironment tableEnv() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        env.enableCheckpointing(300);
        StreamTableEnvironment t = StreamTableEnvironment.create(env);
        t.getConfig().set("table.local-time-zone", "UTC");
        return t;
    }

    private static List<String> column(TableResult result, int index) {
        return CollectionUtil.iteratorToList(result.collect()).stream().map(r -> String.valueOf(r.getField(index)))
                .collect(Collectors.toList());
    }

    @Test
    void listsDatabasesAndTablesAndDescribesATable() throws Exception {
        StreamTableEnvironment t = tableEnv();
        t.executeSql(mysqlCatalog("mysql"));
        assertThat(column(t.executeSql("SHOW DATABASES IN mysql"), 0)).contains("odd.db", "shop")
                .doesNotContain("mysql", "information_schema", "performance_schema", "sys");
        assertThat(column(t.executeSql("SHOW TABLES IN mysql.shop"), 0))
                .containsExactly("all_types", "no_key", "orders");

        Catalog catalog = t.getCatalog("mysql").orElseThrow();
        assertThat(catalog.getDefaultDatabase()).isNull();
        CatalogBaseTable orders = catalog.getTable(new ObjectPath("shop", "orders"));
        Schema schema = orders.getUnresolvedSchema();
        assertThat(schema.getColumns().stream().map(Object::toString).collect(Collectors.toList())).containsExactly(
                "`id` INT NOT NULL", "`customer` VARCHAR(20) NOT NULL COMMENT 'who'", "`amount` DECIMAL(10, 2)",
                "`placed` TIMESTAMP(3)");
        assertThat(schema.getPrimaryKey().orElseThrow().getColumnNames()).containsExactly("id");
        assertThat(orders.getOptions()).containsExactlyInAnyOrderEntriesOf(Map.of("connector", "mysql-cdc",
                "hostname", MARIADB.host(), "port", Integer.toString(MARIADB.port()), "username",
                MariaDbExtension.CDC_USER, "server-time-zone", "UTC", "database-name", "shop", "table-name", "orders"));
        // Names with regex characters are matched literally.
        assertThat(catalog.getTable(new ObjectPath("odd.db", "t$1")).getOptions())
                .containsEntry("database-name", "odd\\.db").containsEntry("table-name", "t\\$1");

        // Every MySQL type as the mysql-cdc connector reads it (AllTypes.FLINK_COLUMNS, with TIME(3) kept:
        // Flink's DDL turns a declared TIME(3) into TIME(0)).
        assertThat(t.from("mysql.shop.all_types").getResolvedSchema().getColumnDataTypes().stream()
                .map(type -> type.getLogicalType().asSummaryString()).collect(Collectors.joining(", ")))
                .isEqualTo("INT NOT NULL, BOOLEAN, BOOLEAN, BINARY(2), TINYINT, SMALLINT, SMALLINT, INT, INT, INT, INT, "
                        + "BIGINT, BIGINT, DECIMAL(20, 0), FLOAT, DOUBLE, DOUBLE, DECIMAL(10, 3), DECIMAL(38, 0), STRING, "
                        + "CHAR(3), VARCHAR(20), STRING, STRING, STRING, STRING, BINARY(3), VARBINARY(10), BYTES, BYTES, "
                        + "BYTES, BYTES, DATE, TIME(0), TIME(3), TIMESTAMP(0), TIMESTAMP(6), TIMESTAMP_LTZ(0), "
                        + "TIMESTAMP_LTZ(3), INT, STRING, STRING, STRING, BYTES, BYTES");

        // A table created in MySQL shows at once; USE CATALOG with a default database.
        MARIADB.execute("CREATE TABLE shop.later (id BIGINT PRIMARY KEY)");
        t.executeSql(mysqlCatalog("mysql_shop", "'default-database' = 'shop'"));
        t.executeSql("USE CATALOG mysql_shop");
        assertThat(column(t.executeSql("SHOW TABLES"), 0)).contains("later", "orders");
        assertThat(column(t.executeSql("SHOW CREATE TABLE orders"), 0).get(0))
                .contains("'connector' = 'mysql-cdc'").doesNotContain(MariaDbExtension.CDC_PASSWORD);
        MARIADB.execute("DROP TABLE shop.later");
    }

    @Test
    void aCatalogTableStreamsItsSnapshotAndChanges() throws Exception {
        StreamTableEnvironment t = tableEnv();
        t.executeSql(mysqlCatalog("mysql"));
        TableResult result = t.executeSql("SELECT k, v FROM mysql.`odd.db`.`t$1` /*+ OPTIONS('server-id' = '5611') */");
        try (CloseableIterator<Row> it = result.collect()) {
            assertThat(it.next().toString()).isEqualTo("+I[7, 8]");
            MARIADB.execute("UPDATE `odd.db`.`t$1` SET v = 9 WHERE k = 7");
            assertThat(List.of(it.next().toString(), it.next().toString())).containsExactly("-U[7, 8]", "+U[7, 9]");
        }
    }

    @Test
    void flinkCreateTableAsSelectCopiesATableIntoPaimonAndKeepsSyncing() throws Exception {
        MARIADB.execute("CREATE DATABASE copy_src",
                "CREATE TABLE copy_src.items (id INT PRIMARY KEY, name VARCHAR(10))",
                "INSERT INTO copy_src.items VALUES (1, 'one'), (2, 'two')");
        StreamTableEnvironment t = tableEnv();
        t.executeSql(mysqlCatalog("mysql"));
        t.executeSql("CREATE CATALOG paimon WITH ('type' = 'paimon', 'warehouse' = '" + warehouse.toUri() + "')");
        t.executeSql("CREATE DATABASE paimon.ods");
        // Flink's CTAS drops the source's primary key; Paimon's 'primary-key' option gives it.
        TableResult job = t.executeSql("CREATE TABLE paimon.ods.items WITH ('primary-key' = 'id') "
                + "AS SELECT * FROM mysql.copy_src.items");
        try {
            await().atMost(Duration.ofMinutes(2)).untilAsserted(() -> assertThat(rows(t, "paimon.ods.items"))
                    .containsExactlyInAnyOrder("+I[1, one]", "+I[2, two]"));
            MARIADB.execute("INSERT INTO copy_src.items VALUES (3, 'three')", "DELETE FROM copy_src.items WHERE id = 1");
            await().atMost(Duration.ofMinutes(2)).untilAsserted(() -> assertThat(rows(t, "paimon.ods.items"))
                    .containsExactlyInAnyOrder("+I[2, two]", "+I[3, three]"));
        } finally {
            job.getJobClient().orElseThrow().cancel().get();
        }
    }

    private static List<String> rows(StreamTableEnvironment streaming, String table) {
        org.apache.flink.table.api.TableEnvironment batch = org.apache.flink.table.api.TableEnvironment.create(
                org.apache.flink.table.api.EnvironmentSettings.inBatchMode());
        for (String catalog : List.of("paimon")) {
            batch.registerCatalog(catalog, streaming.getCatalog(catalog).orElseThrow());
        }
        List<String> rows = new ArrayList<>();
        CollectionUtil.iteratorToList(batch.executeSql("SELECT * FROM " + table).collect())
                .forEach(r -> rows.add(r.toString()));
        return rows;
    }

    @Test
    void changesAndWritesAreRefusedNamingTheCatalog() {
        StreamTableEnvironment t = tableEnv();
        t.executeSql(mysqlCatalog("mysql"));
        for (String statement : List.of("CREATE TABLE mysql.shop.t (id INT)", "DROP TABLE mysql.shop.orders",
                "ALTER TABLE mysql.shop.orders ADD c INT", "CREATE DATABASE mysql.other",
                "DROP DATABASE mysql.shop", "INSERT INTO mysql.shop.orders SELECT * FROM mysql.shop.orders")) {
            assertThatThrownBy(() -> t.executeSql(statement).await()).as(statement)
                    .satisfies(e -> assertThat(ExceptionUtils.stringifyException(e))
                            .contains("catalog 'mysql' (type 'mysql') is read-only", "change them in MySQL"));
        }
    }

    @Test
    void wrongCatalogOptionsAreNamed() {
        StreamTableEnvironment t = tableEnv();
        assertThatThrownBy(() -> t.executeSql(mysqlCatalog("m1", "'database' = 'shop'")))
                .satisfies(e -> assertThat(ExceptionUtils.stringifyException(e)).contains("Unsupported options", "database"));
        assertThatThrownBy(() -> t.executeSql("CREATE CATALOG m2 WITH ('type' = 'mysql', 'hostname' = '"
                + MARIADB.host() + "', 'port' = '" + MARIADB.port() + "', 'username' = 'cdc_user', 'password' = 'nope')"))
                .satisfies(e -> assertThat(ExceptionUtils.stringifyException(e))
                        .contains("access denied for user 'cdc_user'", "'password'"));
        assertThatThrownBy(() -> t.executeSql(mysqlCatalog("m3", "'default-database' = 'nowhere'")))
                .satisfies(e -> assertThat(ExceptionUtils.stringifyException(e))
                        .contains("'default-database' 'nowhere' is not a database of MySQL server"));
        assertThatThrownBy(() -> t.executeSql("CREATE CATALOG m4 WITH ('type' = 'mysql', 'hostname' = 'h')"))
                .satisfies(e -> assertThat(ExceptionUtils.stringifyException(e)).contains("Missing required options", "username"));
    }
}
