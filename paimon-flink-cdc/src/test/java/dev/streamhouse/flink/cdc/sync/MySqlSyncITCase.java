package dev.streamhouse.flink.cdc.sync;

import dev.streamhouse.flink.cdc.testing.AllTypes;
import dev.streamhouse.flink.cdc.testing.MariaDbExtension;
import dev.streamhouse.flink.cdc.testing.SyncedWarehouse;
import dev.streamhouse.storage.catalog.Catalog;
import dev.streamhouse.storage.catalog.Identifier;
import dev.streamhouse.storage.table.Table;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.table.api.EnvironmentSettings;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.apache.flink.types.Row;
import org.apache.flink.util.CloseableIterator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The sync actions end to end against a private MariaDB: tables created with the mapped types, the
 * snapshot and then the binlog (inserts, updates, deletes), schema changes followed without a restart
 * (added and widened columns), a table created while a database sync runs, tables without primary
 * key skipped, and an incompatible change failing the job with a message naming table, column and
 * types. Reads go through the storage API; the all-types case reads the synced table through Flink
 * SQL and finds the values the {@code mysql-cdc} table source reads from the same MySQL table.
 */
class MySqlSyncITCase {
    @RegisterExtension
    static final MariaDbExtension MARIADB = new MariaDbExtension();

    @RegisterExtension
    static final MiniClusterExtension FLINK = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(4).build());

    private static final Duration WAIT = Duration.ofMinutes(2);

    @TempDir
    Path dir;

    private SyncedWarehouse warehouse;

    @BeforeEach
    void openWarehouse() {
        warehouse = new SyncedWarehouse(dir);
    }

    @AfterEach
    void cancelJobs() throws Exception {
        warehouse.cancelJobs();
    }

    private String[] common(String mysqlDatabase) {
        return new String[] {"--warehouse", warehouse.uri(),
                "--mysql_conf", "hostname=" + MARIADB.host(), "--mysql-conf", "port=" + MARIADB.port(),
                "--mysql_conf", "username=" + MariaDbExtension.CDC_USER,
                "--mysql_conf", "password=" + MariaDbExtension.CDC_PASSWORD,
                "--mysql_conf", "database-name=" + mysqlDatabase, "--mysql_conf", "server-time-zone=UTC",
                "-D", "execution.checkpointing.interval=300ms", "-D", "parallelism.default=2"};
    }

    private JobClient start(String action, String[]... argGroups) throws Exception {
        List<String> args = new ArrayList<>();
        for (String[] group : argGroups) {
            args.addAll(List.of(group));
        }
        return warehouse.start(action, args);
    }

    private Catalog catalog() {
        return warehouse.catalog();
    }

    private List<String> rows(String table) {
        return warehouse.rows(table);
    }

    private Table table(String name) {
        return warehouse.table(name);
    }

    private void awaitRows(String table, String... expected) {
        warehouse.awaitRows(table, expected);
    }

    @Test
    void databaseSyncFollowsInsertsUpdatesDeletesSchemaChangesAndNewTables() throws Exception {
        MARIADB.execute("CREATE DATABASE shop",
                "CREATE TABLE shop.orders (id INT PRIMARY KEY, amount DECIMAL(10, 2) NOT NULL, note VARCHAR(10))",
                "CREATE TABLE shop.customers (id BIGINT PRIMARY KEY, name VARCHAR(20) COMMENT 'full name')",
                "CREATE TABLE shop.audit (x INT)",
                "CREATE TABLE shop.skip_me (id INT PRIMARY KEY)",
                "INSERT INTO shop.orders VALUES (1, 10.50, 'a'), (2, 20.00, NULL)",
                "INSERT INTO shop.customers VALUES (7, 'ann')", "INSERT INTO shop.audit VALUES (1)",
                "INSERT INTO shop.skip_me VALUES (1)");
        start("mysql_sync_database", common("shop"), new String[] {"--database", "ods", "--table_prefix", "s_",
                "--excluding_tables", "skip_.*", "--table_conf", "bucket=2", "--table_conf", "sink.parallelism=2"});
        awaitRows("ods.s_orders", "+I(1, 10.50, a)", "+I(2, 20.00, null)");
        awaitRows("ods.s_customers", "+I(7, ann)");
        assertThat(table("ods.s_orders").options()).containsEntry("bucket", "2").doesNotContainKey("sink.parallelism");
        assertThat(table("ods.s_orders").primaryKeys()).containsExactly("id");
        assertThat(table("ods.s_customers").rowType().fields().get(1).description()).isEqualTo("full name");

        MARIADB.execute("INSERT INTO shop.orders VALUES (3, 30.00, 'c')", "UPDATE shop.orders SET note = 'b' WHERE id = 2",
                "DELETE FROM shop.orders WHERE id = 1", "UPDATE shop.orders SET id = 4 WHERE id = 3");
        awaitRows("ods.s_orders", "+I(2, 20.00, b)", "+I(4, 30.00, c)");

        MARIADB.execute("ALTER TABLE shop.orders ADD COLUMN status VARCHAR(5)",
                "ALTER TABLE shop.orders MODIFY note VARCHAR(50)",
                "INSERT INTO shop.orders VALUES (5, 50.00, 'a note longer than ten', 'new')",
                "CREATE TABLE shop.returns (id INT PRIMARY KEY, order_id INT)", "INSERT INTO shop.returns VALUES (1, 5)",
                "INSERT INTO shop.skip_me VALUES (2)");
        awaitRows("ods.s_orders", "+I(2, 20.00, b, null)", "+I(4, 30.00, c, null)",
                "+I(5, 50.00, a note longer than ten, new)");
        awaitRows("ods.s_returns", "+I(1, 5)");
        assertThat(table("ods.s_orders").rowType().asSQLString()).contains("`note` VARCHAR(50)").contains("`status` VARCHAR(5)");
        try (Catalog catalog = catalog()) {
            assertThat(catalog.listTables("ods")).containsExactlyInAnyOrder("s_orders", "s_customers", "s_returns");
        }
    }

    @Test
    void aTableSyncOfEveryColumnTypeHoldsWhatTheMySqlCdcSourceReads() throws Exception {
        MARIADB.execute("CREATE DATABASE ty", "CREATE TABLE ty.all_types (" + AllTypes.MYSQL_COLUMNS + ")",
                "INSERT INTO ty.all_types VALUES (1, " + AllTypes.VALUES + ")", "INSERT INTO ty.all_types (id) VALUES (2)");
        start("mysql_sync_table", common("ty"), new String[] {"--database", "ods", "--table", "all_types",
                "--mysql_conf", "table-name=all_types"});
        await().atMost(WAIT).until(() -> rows("ods.all_types").size() == 2);
        MARIADB.execute("INSERT INTO ty.all_types VALUES (3, " + AllTypes.VALUES + ")",
                "INSERT INTO ty.all_types (id) VALUES (4)");
        await().atMost(WAIT).until(() -> rows("ods.all_types").size() == 4);

        TableEnvironment sql = TableEnvironment.create(EnvironmentSettings.inBatchMode());
        sql.getConfig().set("parallelism.default", "1");
        sql.executeSql("CREATE CATALOG p WITH ('type' = 'paimon', 'warehouse' = '" + warehouse.uri() + "')");
        List<String> synced = new ArrayList<>();
        try (CloseableIterator<Row> it = sql.executeSql("SELECT * FROM p.ods.all_types").collect()) {
            it.forEachRemaining(r -> synced.add(AllTypes.describe(r)));
        }
        synced.sort(null);
        // The values the mysql-cdc table source reads from the same table (MySqlCdcTableITCase).
        String nulls = ", null".repeat(44);
        assertThat(synced).containsExactly("+I 1, " + AllTypes.EXPECTED_VALUES, "+I 2" + nulls,
                "+I 3, " + AllTypes.EXPECTED_VALUES, "+I 4" + nulls);
    }

    @Test
    void anIncompatibleColumnChangeFailsTheJobNamingTableColumnAndTypes() throws Exception {
        MARIADB.execute("CREATE DATABASE bad", "CREATE TABLE bad.t (id INT PRIMARY KEY, n INT)",
                "INSERT INTO bad.t VALUES (1, 1)");
        JobClient job = start("mysql_sync_table", common("bad"), new String[] {"--database", "ods", "--table", "t",
                "--mysql_conf", "table-name=t"});
        awaitRows("ods.t", "+I(1, 1)");
        // A row through the binlog first: DDL before the binlog reader starts is refused by the source.
        MARIADB.execute("INSERT INTO bad.t VALUES (2, 2)");
        awaitRows("ods.t", "+I(1, 1)", "+I(2, 2)");
        MARIADB.execute("ALTER TABLE bad.t MODIFY n VARCHAR(10)", "INSERT INTO bad.t VALUES (3, 'three')");
        await().atMost(WAIT).until(() -> job.getJobStatus().get() == JobStatus.FAILED
                || job.getJobStatus().get() == JobStatus.RESTARTING);
        Throwable failure = null;
        try {
            job.getJobExecutionResult().get(2, TimeUnit.MINUTES);
        } catch (Exception e) {
            failure = e;
        }
        assertThat(failure).isNotNull();
        assertThat(org.apache.flink.util.ExceptionUtils.stringifyException(failure))
                .contains("ods.t").contains("'n'").contains("INT").contains("VARCHAR(10)");
    }


    @Test
    void aMillionRowTableIsSyncedThroughTheParallelSnapshot() throws Exception {
        int rows = 1_000_000;
        MARIADB.execute("CREATE DATABASE big", "CREATE TABLE big.t (id BIGINT PRIMARY KEY, i INT, s VARCHAR(20))",
                "INSERT INTO big.t SELECT seq, seq % 1000, CONCAT('s-', seq) FROM big.seq_1_to_" + rows);
        start("mysql_sync_table", common("big"), new String[] {"--database", "ods", "--table", "big",
                "--mysql_conf", "table-name=t", "--table_conf", "bucket=4", "-D", "execution.checkpointing.interval=1s"});
        await().atMost(Duration.ofMinutes(4)).pollInterval(Duration.ofSeconds(1)).until(() -> {
            try (Catalog catalog = catalog()) {
                Identifier id = Identifier.of("ods", "big");
                return catalog.tableExists(id) && catalog.getTable(id).latestSnapshot()
                        .map(s -> s.totalRecordCount() >= rows).orElse(false);
            }
        });
        MARIADB.execute("UPDATE big.t SET s = 'changed' WHERE id = 7");
        Table big = table("ods.big");
        await().atMost(WAIT).until(() -> rows("ods.big", 7).equals("+I(7, 7, changed)"));
        long count = 0;
        long idSum = 0;
        dev.streamhouse.storage.table.source.ReadBuilder rb = big.newReadBuilder();
        dev.streamhouse.storage.table.source.TableRead read = rb.newRead();
        for (dev.streamhouse.storage.table.source.DataSplit split : rb.newScan().plan().splits()) {
            try (dev.streamhouse.storage.reader.RecordReader<dev.streamhouse.storage.data.InternalRow> reader =
                    read.createReader(split)) {
                dev.streamhouse.storage.reader.RecordIterator<dev.streamhouse.storage.data.InternalRow> batch;
                while ((batch = reader.readBatch()) != null) {
                    dev.streamhouse.storage.data.InternalRow r;
                    while ((r = batch.next()) != null) {
                        count++;
                        idSum += r.longAt(0);
                    }
                    batch.releaseBatch();
                }
            }
        }
        assertThat(count).isEqualTo(rows);
        assertThat(idSum).isEqualTo((long) rows * (rows + 1) / 2);
    }

    /** Row {@code id} of a table as {@link #rows} shows it, or "none". */
    private String rows(String table, long id) {
        for (String row : rows(table)) {
            if (row.startsWith("+I(" + id + ",")) {
                return row;
            }
        }
        return "none";
    }
}
