package dev.streamhouse.flink.cdc.sync;

import dev.streamhouse.flink.cdc.action.CdcActionsTesting;
import dev.streamhouse.flink.cdc.testing.MariaDbExtension;
import dev.streamhouse.storage.catalog.Catalog;
import dev.streamhouse.storage.catalog.CatalogFactory;
import dev.streamhouse.storage.catalog.Identifier;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.schema.Schema;
import dev.streamhouse.storage.table.Partition;
import dev.streamhouse.storage.table.Table;
import dev.streamhouse.storage.testutils.TestTables;
import dev.streamhouse.storage.types.DataTypes;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * {@code --computed_column} and {@code --metadata_column} end to end against a private MariaDB: a
 * table sync partitioned by a computed date with the source table's name and the change time (epoch 0
 * for snapshot rows, the binlog time after), an update moving a row to another partition, a computed
 * column widening with its input column; a database sync adding {@code database_name} to an existing
 * table, a created table and a table created while it runs; arguments that do not fit the source
 * refused before the job is submitted.
 */
class MySqlSyncColumnsITCase {
    @RegisterExtension
    static final MariaDbExtension MARIADB = new MariaDbExtension();

    @RegisterExtension
    static final MiniClusterExtension FLINK = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(4).build());

    private static final Duration WAIT = Duration.ofMinutes(2);

    @TempDir
    Path warehouse;

    private final List<JobClient> jobs = new ArrayList<>();
    private final Instant started = Instant.now().minusSeconds(60);

    @AfterEach
    void cancelJobs() throws Exception {
        for (JobClient job : jobs) {
            if (!job.getJobStatus().get().isGloballyTerminalState()) {
                job.cancel().get(1, TimeUnit.MINUTES);
            }
        }
    }

    private List<String> args(String mysqlDatabase, String... more) {
        List<String> args = new ArrayList<>(List.of("--warehouse", warehouse.toUri().toString(),
                "--mysql_conf", "hostname=" + MARIADB.host(), "--mysql_conf", "port=" + MARIADB.port(),
                "--mysql_conf", "username=" + MariaDbExtension.CDC_USER,
                "--mysql_conf", "password=" + MariaDbExtension.CDC_PASSWORD,
                "--mysql_conf", "database-name=" + mysqlDatabase, "--mysql_conf", "server-time-zone=UTC",
                "--database", "ods", "-D", "execution.checkpointing.interval=300ms", "-D", "parallelism.default=2"));
        args.addAll(List.of(more));
        return args;
    }

    private void start(String action, List<String> args) throws Exception {
        jobs.add(CdcActionsTesting.submit(action, args.toArray(new String[0])));
    }

    private Catalog catalog() {
        return CatalogFactory.createCatalog(new Options(Map.of("warehouse", warehouse.toUri().toString())));
    }

    private Table table(String name) {
        try (Catalog catalog = catalog()) {
            return catalog.getTable(Identifier.fromString(name));
        }
    }

    /**
     * The table's rows, values compared (a +U shown as +I), with an {@code op_ts} last column shown as
     * "snapshot" when it is epoch 0 and as "binlog" when it is a time since this test started.
     */
    private List<String> rows(String table, boolean opTsLast) {
        try (Catalog catalog = catalog()) {
            Identifier id = Identifier.fromString(table);
            if (!catalog.tableExists(id)) {
                return List.of("(no table " + table + ")");
            }
            List<String> out = new ArrayList<>();
            for (String row : TestTables.readAll(catalog.getTable(id))) {
                String r = row.replaceFirst("^[-+][IUD]", "+I");
                out.add(opTsLast ? markOpTs(r) : r);
            }
            out.sort(null);
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private String markOpTs(String row) {
        int last = row.lastIndexOf(", ");
        String value = row.substring(last + 2, row.length() - 1);
        Instant opTs = LocalDateTime.parse(value).toInstant(ZoneOffset.UTC);
        String shown = opTs.equals(Instant.EPOCH) ? "snapshot"
                : opTs.isAfter(started) && opTs.isBefore(Instant.now().plusSeconds(60)) ? "binlog" : value;
        return row.substring(0, last + 2) + shown + ")";
    }

    private void awaitRows(String table, boolean opTsLast, String... expected) {
        List<String> sorted = new ArrayList<>(List.of(expected));
        sorted.sort(null);
        await().atMost(WAIT).pollInterval(Duration.ofMillis(200))
                .untilAsserted(() -> assertThat(rows(table, opTsLast)).as(table).isEqualTo(sorted));
    }

    private static List<String> partitions(Table table) {
        List<String> out = new ArrayList<>();
        for (Partition p : table.partitions()) {
            out.add(p.spec().toString());
        }
        out.sort(null);
        return out;
    }

    @Test
    void aTableSyncPartitionedByAComputedDateWithTableNameAndChangeTime() throws Exception {
        MARIADB.execute("CREATE DATABASE ev",
                "CREATE TABLE ev.events (id INT PRIMARY KEY, ts DATETIME(3) NOT NULL, name VARCHAR(10))",
                "INSERT INTO ev.events VALUES (1, '2024-03-05 10:00:00', 'ann'), (2, '2024-03-06 23:59:59.999', 'bob')");
        start("mysql_sync_table", args("ev", "--table", "events", "--mysql_conf", "table-name=events",
                "--computed_column", "dt=date_format(ts,'yyyy-MM-dd')", "--computed_column", "initial=truncate(name, 1)",
                "--partition_keys", "dt", "--primary_keys", "id,dt", "--metadata_column", "table_name,op_ts"));
        awaitRows("ods.events", true,
                "+I(1, 2024-03-05T10:00, ann, 2024-03-05, a, events, snapshot)",
                "+I(2, 2024-03-06T23:59:59.999, bob, 2024-03-06, b, events, snapshot)");
        Table events = table("ods.events");
        assertThat(events.rowType().asSQLString()).isEqualTo("ROW<`id` INT NOT NULL, `ts` TIMESTAMP(3) NOT NULL, "
                + "`name` VARCHAR(10), `dt` STRING NOT NULL, `initial` VARCHAR(10), `table_name` STRING NOT NULL, "
                + "`op_ts` TIMESTAMP(3) WITH LOCAL TIME ZONE NOT NULL>");
        assertThat(events.partitionKeys()).containsExactly("dt");
        assertThat(events.primaryKeys()).containsExactly("id", "dt");
        assertThat(partitions(events)).containsExactly("{dt=2024-03-05}", "{dt=2024-03-06}");

        // Through the binlog: a new day, a row moving to another day (out of its partition), a delete.
        MARIADB.execute("INSERT INTO ev.events VALUES (3, '2024-03-07 08:00:00', 'cy')",
                "UPDATE ev.events SET ts = '2024-03-07 09:30:00' WHERE id = 1", "DELETE FROM ev.events WHERE id = 2");
        awaitRows("ods.events", true,
                "+I(1, 2024-03-07T09:30, ann, 2024-03-07, a, events, binlog)",
                "+I(3, 2024-03-07T08:00, cy, 2024-03-07, c, events, binlog)");
        assertThat(partitions(table("ods.events"))).contains("{dt=2024-03-07}");

        // The input of truncate widens: so does the computed column, by the same rules.
        MARIADB.execute("ALTER TABLE ev.events MODIFY name VARCHAR(30)",
                "INSERT INTO ev.events VALUES (4, '2024-03-08 00:00:00', 'a much longer name')");
        awaitRows("ods.events", true,
                "+I(1, 2024-03-07T09:30, ann, 2024-03-07, a, events, binlog)",
                "+I(3, 2024-03-07T08:00, cy, 2024-03-07, c, events, binlog)",
                "+I(4, 2024-03-08T00:00, a much longer name, 2024-03-08, a, events, binlog)");
        assertThat(table("ods.events").rowType().asSQLString()).contains("`name` VARCHAR(30)")
                .contains("`initial` VARCHAR(30)");
    }

    @Test
    void aDatabaseSyncAddsTheDatabaseNameToExistingCreatedAndNewTables() throws Exception {
        MARIADB.execute("CREATE DATABASE crm",
                "CREATE TABLE crm.customers (id INT PRIMARY KEY, name VARCHAR(20))",
                "CREATE TABLE crm.leads (id INT PRIMARY KEY, email VARCHAR(30))",
                "INSERT INTO crm.customers VALUES (1, 'ann')", "INSERT INTO crm.leads VALUES (7, 'x@y.z')");
        // ods.customers exists from an earlier sync without metadata columns.
        try (Catalog catalog = catalog()) {
            catalog.createDatabase("ods", true);
            catalog.createTable(Identifier.of("ods", "customers"), Schema.newBuilder()
                    .column("id", DataTypes.INT().notNull()).column("name", DataTypes.VARCHAR(20))
                    .primaryKey("id").build(), false);
        }
        start("mysql_sync_database", args("crm", "--metadata_column", "database_name"));
        awaitRows("ods.customers", false, "+I(1, ann, crm)");
        awaitRows("ods.leads", false, "+I(7, x@y.z, crm)");
        assertThat(table("ods.customers").rowType().asSQLString()).endsWith("`database_name` STRING>");
        assertThat(table("ods.leads").rowType().asSQLString()).endsWith("`database_name` STRING NOT NULL>");

        MARIADB.execute("INSERT INTO crm.leads VALUES (8, 'u@v.w')");
        awaitRows("ods.leads", false, "+I(7, x@y.z, crm)", "+I(8, u@v.w, crm)");
        MARIADB.execute("CREATE TABLE crm.deals (id INT PRIMARY KEY, amount INT)", "INSERT INTO crm.deals VALUES (3, 300)");
        awaitRows("ods.deals", false, "+I(3, 300, crm)");
        assertThat(table("ods.deals").rowType().asSQLString()).endsWith("`database_name` STRING NOT NULL>");
    }

    @Test
    void columnsThatDoNotFitTheSourceAreRefusedBeforeTheJobStarts() {
        MARIADB.execute("CREATE DATABASE bad", "CREATE TABLE bad.t (id INT PRIMARY KEY, name VARCHAR(10))");
        List<String> table = args("bad", "--table", "t", "--mysql_conf", "table-name=t");
        assertThatThrownBy(() -> start("mysql_sync_table", with(table, "--computed_column", "u=upper(id)")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Cannot compute --computed_column 'u=upper(id)' for source table bad.t: upper() takes a "
                        + "CHAR or VARCHAR column, and column 'id' is INT NOT NULL");
        assertThatThrownBy(() -> start("mysql_sync_table", with(table, "--computed_column", "y=year(created)")))
                .hasMessage("Cannot compute --computed_column 'y=year(created)' for source table bad.t: it has no "
                        + "column 'created' (its columns: [id, name])");
        assertThatThrownBy(() -> start("mysql_sync_table", with(table, "--computed_column", "name=upper(name)")))
                .hasMessageContaining("Cannot add column 'name' (--computed_column 'name=upper(name)') to the rows of "
                        + "source table bad.t: the source has a column of that name");
        assertThatThrownBy(() -> start("mysql_sync_database", args("bad", "--metadata_column", "table_name,op_ts",
                "--computed_column", "p=truncate(price, 10)")))
                .hasMessage("Cannot compute --computed_column 'p=truncate(price, 10)' for source table bad.t: it has no "
                        + "column 'price' (its columns: [id, name])");
        assertThatThrownBy(() -> start("mysql_sync_table", with(table, "--partition_keys", "dt")))
                .hasMessage("Cannot sync into table ods.t: partition key 'dt' (--partition_keys) is no column of the "
                        + "source tables or computed or metadata column (columns: [id, name])");
        assertThat(jobs).isEmpty();
    }

    private static List<String> with(List<String> args, String... more) {
        List<String> all = new ArrayList<>(args);
        all.addAll(List.of(more));
        return all;
    }
}
