package dev.streamhouse.sqlrunner;

import dev.streamhouse.flink.cdc.testing.MariaDbExtension;
import dev.streamhouse.flink.cdc.testing.SyncedWarehouse;
import dev.streamhouse.storage.catalog.Catalog;
import dev.streamhouse.storage.catalog.Identifier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * bin/flink-sql's {@code CREATE DATABASE ... AS DATABASE} and {@code CREATE TABLE ... AS TABLE} from a
 * {@code mysql} catalog against a private MariaDB, run as a user runs them: a script's sync job keeps
 * running after its last statement while rows, a new column and a new table arrive in MySQL and show
 * in the Paimon tables (read here through the storage API), until SIGTERM cancels it; mistakes at the
 * prompt and in a script give one message naming what to fix, no stack trace.
 */
class FlinkSqlSyncITCase {
    @RegisterExtension
    static final MariaDbExtension MARIADB = new MariaDbExtension();

    private static final Path ROOT = Path.of(System.getProperty("streamhouse.root", "..")).toAbsolutePath().normalize();
    private static final Duration WAIT = Duration.ofMinutes(2);

    @TempDir
    Path workDir;

    private String mysqlCatalog() {
        return "CREATE CATALOG mysql WITH ('type' = 'mysql', 'hostname' = '" + MARIADB.host() + "', 'port' = '"
                + MARIADB.port() + "', 'username' = '" + MariaDbExtension.CDC_USER + "', 'password' = '"
                + MariaDbExtension.CDC_PASSWORD + "', 'server-time-zone' = 'UTC');";
    }

    @Test
    void createDatabaseAsDatabaseFollowsRowsNewColumnsAndNewTablesUntilStopped() throws Exception {
        MARIADB.execute("CREATE DATABASE sales",
                "CREATE TABLE sales.orders (id INT PRIMARY KEY, amount DECIMAL(10, 2) NOT NULL)",
                "CREATE TABLE sales.customers (id BIGINT PRIMARY KEY, name VARCHAR(20))",
                "CREATE TABLE sales.tmp_log (id INT PRIMARY KEY)",
                "INSERT INTO sales.orders VALUES (1, 10.50), (2, 20.00)", "INSERT INTO sales.customers VALUES (7, 'ann')",
                "INSERT INTO sales.tmp_log VALUES (1)");
        Path script = script("cdas.sql", mysqlCatalog(),
                "SET 'execution.checkpointing.interval' = '500ms';",
                "CREATE DATABASE IF NOT EXISTS ods WITH ('bucket' = '2')",
                "  AS DATABASE mysql.sales INCLUDING ALL TABLES EXCLUDING TABLE 'tmp_.*'",
                "  /*+ OPTIONS('server-id' = '5601-5610') */;",
                "SHOW DATABASES;");

        try (BackgroundRun run = flinkSqlInBackground("-f", script.toString())) {
            run.awaitOutput("[INFO] The script's sync jobs keep running in this process", WAIT);
            // Printed as a detached INSERT's, although the session has table.dml-sync = true.
            assertThat(run.output()).contains("[INFO] SQL update statement has been successfully submitted to the "
                    + "cluster:").containsPattern("\nJob ID: [0-9a-f]{32}\n");
            assertThat(Tableau.rows(run.output(), "database name")).contains(List.of("ods"));

            awaitRows("ods.orders", "+I(1, 10.50)", "+I(2, 20.00)");
            awaitRows("ods.customers", "+I(7, ann)");
            MARIADB.execute("INSERT INTO sales.orders VALUES (3, 30.00)", "UPDATE sales.customers SET name = 'anne'",
                    "ALTER TABLE sales.orders ADD COLUMN note VARCHAR(10)",
                    "INSERT INTO sales.orders VALUES (4, 40.00, 'new column')",
                    "CREATE TABLE sales.items (id INT PRIMARY KEY, sku VARCHAR(8))",
                    "INSERT INTO sales.items VALUES (1, 'A-1')");
            awaitRows("ods.orders", "+I(1, 10.50, null)", "+I(2, 20.00, null)", "+I(3, 30.00, null)",
                    "+I(4, 40.00, new column)");
            awaitRows("ods.customers", "+I(7, anne)");
            awaitRows("ods.items", "+I(1, A-1)");
            try (Catalog catalog = catalog()) {
                assertThat(catalog.listTables("ods")).containsExactlyInAnyOrder("orders", "customers", "items");
                assertThat(catalog.getTable(Identifier.of("ods", "items")).options()).containsEntry("bucket", "2");
            }

            int exit = run.stop(WAIT);
            assertThat(exit).as(run.output()).isEqualTo(143);
            assertThat(run.output()).contains("[INFO] Cancelled sync job ", "(MySQL-Paimon Database Sync: ods)")
                    .doesNotContain("[ERROR]", "\tat ");
        }
    }

    @Test
    void createTableAsTableMergesShardsIntoOneTable() throws Exception {
        MARIADB.execute("CREATE DATABASE shard_1", "CREATE DATABASE shard_2",
                "CREATE TABLE shard_1.orders (id INT PRIMARY KEY, amount INT)",
                "CREATE TABLE shard_2.orders (id INT PRIMARY KEY, amount INT)",
                "INSERT INTO shard_1.orders VALUES (1, 10)", "INSERT INTO shard_2.orders VALUES (2, 20)");
        Path script = script("ctas.sql", mysqlCatalog(),
                "SET 'execution.checkpointing.interval' = '500ms';",
                "CREATE TABLE IF NOT EXISTS paimon.ods.orders WITH ('sink.parallelism' = '1')",
                "  AS TABLE mysql.`shard_[0-9]+`.orders;");

        try (BackgroundRun run = flinkSqlInBackground("-f", script.toString())) {
            run.awaitOutput("[INFO] The script's sync jobs keep running in this process", WAIT);
            awaitRows("ods.orders", "+I(1, 10)", "+I(2, 20)");
            MARIADB.execute("INSERT INTO shard_2.orders VALUES (3, 30)", "DELETE FROM shard_1.orders WHERE id = 1");
            awaitRows("ods.orders", "+I(2, 20)", "+I(3, 30)");
            try (Catalog catalog = catalog()) {
                assertThat(catalog.getTable(Identifier.of("ods", "orders")).options())
                        .doesNotContainKey("sink.parallelism");
            }
            assertThat(run.stop(WAIT)).as(run.output()).isEqualTo(143);
            assertThat(run.output()).contains("[INFO] Cancelled sync job ", "(MySQL-Paimon Table Sync: ods.orders)");
        }
    }

    /**
     * The prompt (statements read from standard input) goes on after each mistake; a script stops at
     * its first one and exits with 1. Each shows one line naming what is wrong.
     */
    @Test
    void mistakesAreNamedWithoutStackTraces() throws Exception {
        MARIADB.execute("CREATE DATABASE kv_db", "CREATE TABLE kv_db.kv (id INT PRIMARY KEY)");
        Path statements = script("prompt.sql", mysqlCatalog(),
                "CREATE TABLE ods.t AS TABLE mysqlx.kv_db.kv;",
                "CREATE DATABASE ods AS DATABASE mysql.nowhere INCLUDING ALL TABLES;",
                "CREATE TABLE default_catalog.default_database.t AS TABLE mysql.kv_db.kv;",
                "CREATE DATABASE ods AS DATABASE mysql.kv_db INCLUDING TABLE 'kv(';",
                "CREATE TABLE ods.t (id INT) AS TABLE mysql.kv_db.kv;",
                "SET 'execution.runtime-mode' = 'batch';",
                "CREATE TABLE ods.t AS TABLE mysql.kv_db.kv;",
                "SELECT 'still at the prompt' AS message;");

        ProcessRun prompt = flinkSql(statements);

        assertThat(prompt.exitCode).as(prompt.output).isZero();
        assertThat(errors(prompt.output)).containsExactly(
                "Cannot run CREATE TABLE ... AS TABLE: there is no source catalog 'mysqlx'; create it with CREATE "
                        + "CATALOG mysqlx WITH ('type' = 'mysql', 'hostname' = '...', 'port' = '3306', "
                        + "'username' = '...', 'password' = '...') or WITH ('type' = 'kafka', "
                        + "'properties.bootstrap.servers' = '...', 'value.format' = '...')",
                "Cannot run CREATE DATABASE ... AS DATABASE: there is no database 'nowhere' on MySQL server "
                        + MARIADB.host() + ":" + MARIADB.port() + " (catalog 'mysql') (or user 'cdc_user' may not see it)",
                "Cannot run CREATE TABLE ... AS TABLE: target catalog 'default_catalog' is not one created with CREATE "
                        + "CATALOG; a sync writes Paimon tables into a catalog of 'type' = 'paimon' (e.g. paimon.ods)",
                "Cannot run CREATE DATABASE ... AS DATABASE: invalid regular expression 'kv(' for INCLUDING TABLE: "
                        + "Unclosed group",
                "Cannot parse CREATE TABLE ... AS TABLE: only a PRIMARY KEY constraint may be given in parentheses "
                        + "(the table has the source's columns), not id",
                "Cannot run CREATE TABLE ... AS TABLE in batch mode: it starts a streaming sync job that runs until it "
                        + "is stopped; SET 'execution.runtime-mode' = 'streaming' first");
        assertThat(Tableau.rowsOfAll(prompt.output, "message")).containsExactly(List.of("still at the prompt"));
        assertThat(prompt.output).doesNotContain("\tat ", "Caused by");

        Path script = script("failing.sql", mysqlCatalog(), "CREATE TABLE ods.t AS TABLE mysqlx.kv_db.kv;",
                "SELECT 'not reached' AS message;");
        ProcessRun failing = flinkSql(null, "-f", script.toString());
        assertThat(failing.exitCode).as(failing.output).isEqualTo(1);
        assertThat(errors(failing.output)).hasSize(1).allMatch(e -> e.contains("there is no source catalog 'mysqlx'"));
        assertThat(failing.output).doesNotContain("not reached", "\tat ");
    }

    /** The messages of the client's "[ERROR] Could not execute SQL statement. Reason:" blocks, in order. */
    private static List<String> errors(String output) {
        List<String> errors = new ArrayList<>();
        String[] lines = output.split("\n");
        for (int i = 0; i + 1 < lines.length; i++) {
            if (lines[i].contains("[ERROR] Could not execute SQL statement. Reason:")) {
                errors.add(lines[i + 1].replaceAll("\u001B\\[[0-9;]*m", "")
                        .replaceFirst("^org\\.apache\\.flink\\.table\\.client\\.gateway\\.SqlExecutionException: ", ""));
            }
        }
        return errors;
    }

    private Path script(String name, String... lines) throws IOException {
        Path file = workDir.resolve(name);
        Files.writeString(file, String.join("\n", lines) + "\n");
        return file;
    }

    private Catalog catalog() {
        return warehouse().catalog();
    }

    private SyncedWarehouse warehouse() {
        return new SyncedWarehouse(workDir.resolve("warehouse"));
    }

    private void awaitRows(String table, String... expected) {
        warehouse().awaitRows(table, expected);
    }

    private List<String> command(String... args) {
        List<String> command = new ArrayList<>(List.of("bash", ROOT.resolve("bin/flink-sql").toString(),
                "-hist", workDir.resolve("flink-sql-history").toString()));
        command.addAll(List.of(args));
        return command;
    }

    private void environment(Map<String, String> env) {
        env.put("FLINK_SQL_SKIP_BUILD", "1");
        env.put("FLINK_SQL_LOG", ROOT.resolve("paimon-sql-runner/target/logs/FlinkSqlSyncITCase.log").toString());
        env.put("JAVA_HOME", System.getProperty("java.home"));
        env.put("WAREHOUSE", workDir.resolve("warehouse").toString());
        env.remove("FLINK_CONF_DIR");
        env.remove("FLINK_SQL_JAVA_OPTS");
    }

    private BackgroundRun flinkSqlInBackground(String... args) throws IOException {
        return BackgroundRun.start(command(args), workDir, workDir.resolve("output.txt"), this::environment);
    }

    /** Runs bin/flink-sql to its end, with {@code input} as standard input (the prompt) unless null. */
    private ProcessRun flinkSql(Path input, String... args) throws IOException, InterruptedException {
        return ProcessRun.run(command(args), workDir, workDir.resolve("output.txt"), WAIT, this::environment,
                input == null ? Path.of("/dev/null") : input);
    }
}
