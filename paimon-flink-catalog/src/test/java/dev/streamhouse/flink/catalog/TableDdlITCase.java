package dev.streamhouse.flink.catalog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.streamhouse.flink.catalog.testutils.CatalogITCaseBase;
import dev.streamhouse.storage.catalog.Identifier;
import dev.streamhouse.storage.schema.TableSchema;
import dev.streamhouse.storage.types.DataField;
import dev.streamhouse.storage.types.DataTypes;

import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.TableDescriptor;
import org.apache.flink.table.catalog.CatalogBaseTable;
import org.apache.flink.table.catalog.CatalogTable;
import org.apache.flink.table.catalog.ObjectPath;
import org.apache.flink.table.catalog.ResolvedSchema;
import org.apache.flink.table.catalog.exceptions.TableNotExistException;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

/** CREATE / DROP / SHOW / DESCRIBE TABLE, CREATE TABLE LIKE, time travel and what the catalog refuses. */
class TableDdlITCase extends CatalogITCaseBase {
    private static final String ORDERS_DDL = "CREATE TABLE orders ("
            + " id BIGINT COMMENT 'order id',"
            + " dt STRING,"
            + " amount DECIMAL(10, 2),"
            + " PRIMARY KEY (id, dt) NOT ENFORCED"
            + ") COMMENT 'all orders' PARTITIONED BY (dt) WITH ('bucket' = '2', 'file.format' = 'parquet')";

    private TableSchema stored(String table) {
        return storage().getTable(Identifier.of("default", table)).schema();
    }

    private org.apache.flink.table.catalog.Catalog catalog() {
        return tEnv.getCatalog(CATALOG).orElseThrow();
    }

    @Test
    void createStoresColumnsKeysOptionsAndComments() {
        sql(ORDERS_DDL);

        TableSchema schema = stored("orders");
        assertThat(schema.fields()).containsExactly(
                new DataField(0, "id", DataTypes.BIGINT().notNull(), "order id", null),
                new DataField(1, "dt", DataTypes.STRING().notNull()),
                new DataField(2, "amount", DataTypes.DECIMAL(10, 2)));
        assertThat(schema.primaryKeys()).containsExactly("id", "dt");
        assertThat(schema.partitionKeys()).containsExactly("dt");
        assertThat(schema.options()).containsOnly(Map.entry("bucket", "2"), Map.entry("file.format", "parquet"));
        assertThat(schema.comment()).isEqualTo("all orders");
    }

    @Test
    void getReturnsWhatFlinkNeedsToPlan() throws Exception {
        sql(ORDERS_DDL);

        CatalogTable table = (CatalogTable) catalog().getTable(new ObjectPath("default", "orders"));
        assertThat(table.getPartitionKeys()).containsExactly("dt");
        assertThat(table.getOptions()).containsOnly(Map.entry("bucket", "2"), Map.entry("file.format", "parquet"));
        assertThat(table.getComment()).isEqualTo("all orders");

        ResolvedSchema schema = tEnv.from("orders").getResolvedSchema();
        assertThat(schema.toString()).isEqualTo("(\n"
                + "  `id` BIGINT NOT NULL COMMENT 'order id',\n"
                + "  `dt` STRING NOT NULL,\n"
                + "  `amount` DECIMAL(10, 2),\n"
                + "  CONSTRAINT `PK_id_dt` PRIMARY KEY (`id`, `dt`) NOT ENFORCED\n"
                + ")");
        assertThat(rows("DESCRIBE orders")).containsExactly(
                "+I[id, BIGINT, false, PRI(id, dt), null, null, order id]",
                "+I[dt, STRING, false, PRI(id, dt), null, null, null]",
                "+I[amount, DECIMAL(10, 2), true, null, null, null, null]");
    }

    @Test
    void ifNotExistsKeepsTheExistingTable() {
        sql(ORDERS_DDL);
        sql("CREATE TABLE IF NOT EXISTS orders (x INT)");
        sql("CREATE TABLE IF NOT EXISTS orders (x INT, y AS x + 1)");
        assertThat(stored("orders").fieldNames()).containsExactly("id", "dt", "amount");
        assertThatThrownBy(() -> sql("CREATE TABLE orders (x INT)"))
                .hasStackTraceContaining("Table (or view) default.orders already exists in Catalog paimon");
    }

    @Test
    void createInAMissingDatabaseIsAnError() {
        assertThatThrownBy(() -> sql("CREATE TABLE nope.t (x INT)"))
                .hasStackTraceContaining("Database nope does not exist");
    }

    @Test
    void showDropAndDropIfExists() {
        sql("CREATE TABLE a (x INT)");
        sql("CREATE TABLE b (x INT)");
        assertThat(sortedRows("SHOW TABLES")).containsExactly("+I[a]", "+I[b]");
        sql("DROP TABLE a");
        sql("DROP TABLE IF EXISTS a");
        assertThat(rows("SHOW TABLES")).containsExactly("+I[b]");
        assertThatThrownBy(() -> sql("DROP TABLE a")).hasStackTraceContaining("a");
        assertThat(storage().tableExists(Identifier.of("default", "a"))).isFalse();
    }

    @Test
    void createTableLikeCopiesSchemaKeysAndOptions() {
        sql(ORDERS_DDL);
        sql("CREATE TABLE orders_copy LIKE orders");
        sql("CREATE TABLE orders_4 WITH ('bucket' = '4') LIKE orders (OVERWRITING OPTIONS)");

        TableSchema original = stored("orders");
        TableSchema copy = stored("orders_copy");
        assertThat(copy.fields()).isEqualTo(original.fields());
        assertThat(copy.primaryKeys()).isEqualTo(original.primaryKeys());
        assertThat(copy.partitionKeys()).isEqualTo(original.partitionKeys());
        assertThat(copy.options()).isEqualTo(original.options());
        assertThat(stored("orders_4").options())
                .containsOnly(Map.entry("bucket", "4"), Map.entry("file.format", "parquet"));
    }

    @Test
    void timeTravelGetTableAddsScanTimestamp() throws Exception {
        sql(ORDERS_DDL);
        CatalogBaseTable table = catalog().getTable(new ObjectPath("default", "orders"), 1700000000000L);
        assertThat(table.getOptions()).containsEntry("scan.timestamp-millis", "1700000000000")
                .containsEntry("bucket", "2");
        assertThat(((CatalogTable) table).getPartitionKeys()).containsExactly("dt");
        assertThatThrownBy(() -> catalog().getTable(new ObjectPath("default", "nope"), 1L))
                .isInstanceOf(TableNotExistException.class);
    }

    @Test
    void dataTablesAreReadableAndWritable() {
        sql("CREATE TABLE t (x INT)");
        sql("INSERT INTO t VALUES (1), (2)");
        assertThat(sortedRows("SELECT * FROM t")).containsExactly("+I[1]", "+I[2]");
    }

    @Test
    void metadataColumnsAreRefused() {
        assertThatThrownBy(() -> sql("CREATE TABLE t (a INT, m BIGINT METADATA FROM 'offset')"))
                .hasStackTraceContaining("Cannot create table `paimon`.`default`.`t`: metadata column 'm'");
        assertThatThrownBy(() -> sql("CREATE TABLE t (a INT, b AS a + 1, v INT METADATA VIRTUAL)"))
                .hasStackTraceContaining("metadata column 'v'");
        assertThat(rows("SHOW TABLES")).isEmpty();
    }

    @Test
    void distributionOtherConnectorsAndUnstorableTypesAreRefused() {
        assertThatThrownBy(() -> sql("CREATE TABLE t (a INT) DISTRIBUTED BY HASH(a) INTO 4 BUCKETS"))
                .hasStackTraceContaining("DISTRIBUTED BY")
                .hasStackTraceContaining("set the options 'bucket' and 'bucket-key' instead");
        assertThatThrownBy(() -> sql("CREATE TABLE t (a INT) WITH ('connector' = 'datagen')"))
                .hasStackTraceContaining("option 'connector' = 'datagen' names another connector");
        // Flink's DDL cannot declare an INTERVAL column, its Table API can
        assertThatThrownBy(() -> tEnv.createTable("t", TableDescriptor.forConnector("paimon")
                .schema(Schema.newBuilder()
                        .column("a", org.apache.flink.table.api.DataTypes.INT())
                        .column("span", org.apache.flink.table.api.DataTypes.INTERVAL(
                                org.apache.flink.table.api.DataTypes.DAY(), org.apache.flink.table.api.DataTypes.SECOND(3)))
                        .build())
                .build()))
                .hasStackTraceContaining("Cannot store column 'span' of type INTERVAL DAY(2) TO SECOND(3)");
        assertThat(rows("SHOW TABLES")).isEmpty();
    }

    @Test
    void connectorPaimonIsAcceptedAndNotStored() {
        sql("CREATE TABLE t (a INT) WITH ('connector' = 'paimon')");
        assertThat(stored("t").options()).isEmpty();
    }

    @Test
    void invalidSchemasAreExplainedByTheStorage() {
        assertThatThrownBy(() -> sql("CREATE TABLE t (dt STRING, PRIMARY KEY (dt) NOT ENFORCED) PARTITIONED BY (dt)"))
                .hasStackTraceContaining("the primary key [dt] consists only of partition keys [dt]");
        assertThatThrownBy(() -> sql("CREATE TABLE t (a INT) WITH ('bucket' = '0')"))
                .hasStackTraceContaining("option 'bucket' must be a positive bucket count");
        assertThatThrownBy(() -> sql("CREATE TABLE t (a INT) WITH ('bucket' = '4')"))
                .hasStackTraceContaining("needs option 'bucket-key'");
        assertThatThrownBy(() -> sql("CREATE TABLE `t$x` (a INT)"))
                .hasStackTraceContaining("'$' is reserved for system tables");
        assertThat(rows("SHOW TABLES")).isEmpty();
    }

    @Test
    void viewsAndFunctionsAreRefused() {
        assertThatThrownBy(() -> sql("CREATE VIEW v AS SELECT 1 AS x"))
                .hasStackTraceContaining("views are not supported by this catalog");
        assertThatThrownBy(() -> sql("CREATE FUNCTION f AS 'com.example.F'"))
                .hasStackTraceContaining("stores no functions; use CREATE TEMPORARY FUNCTION instead");
        assertThat(rows("SHOW VIEWS")).isEmpty();
        assertThat(rows("SHOW USER FUNCTIONS")).isEmpty();
    }

    @Test
    void temporaryTablesOfOtherConnectorsStillWork() {
        sql("CREATE TEMPORARY TABLE gen (x INT) WITH ('connector' = 'datagen', 'number-of-rows' = '3')");
        assertThat(rows("SELECT COUNT(*) FROM gen")).containsExactly("+I[3]");
    }

    @Test
    void renameMovesTheTable() {
        sql("CREATE TABLE a (x INT)");
        sql("ALTER TABLE a RENAME TO b");
        assertThat(rows("SHOW TABLES")).containsExactly("+I[b]");
        assertThatThrownBy(() -> sql("ALTER TABLE b RENAME TO `..`")).hasStackTraceContaining("Cannot use");
    }

    @Test
    void statisticsAreUnknownAndAnalyzeIsRefused() throws Exception {
        sql("CREATE TABLE a (x INT)");
        assertThat(catalog().getTableStatistics(new ObjectPath("default", "a")))
                .isEqualTo(org.apache.flink.table.catalog.stats.CatalogTableStatistics.UNKNOWN);
        assertThatThrownBy(() -> catalog().alterTableStatistics(new ObjectPath("default", "a"),
                org.apache.flink.table.catalog.stats.CatalogTableStatistics.UNKNOWN, false))
                .hasMessageContaining("ANALYZE TABLE is not supported");
    }

    @Test
    void listsUseTheStorageTables() throws Exception {
        sql("CREATE DATABASE other");
        sql("CREATE TABLE other.x (a INT)");
        assertThat(catalog().listTables("other")).isEqualTo(List.of("x"));
        assertThat(catalog().tableExists(new ObjectPath("other", "x"))).isTrue();
        assertThat(catalog().tableExists(new ObjectPath("other", "y"))).isFalse();
        assertThat(catalog().tableExists(new ObjectPath("other", "x$files"))).isTrue();
        assertThat(catalog().tableExists(new ObjectPath("other", "x$nope"))).isFalse();
        assertThat(catalog().tableExists(new ObjectPath("other", "y$files"))).isFalse();
    }
}
