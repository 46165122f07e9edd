package dev.streamhouse.sqlrunner;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs bin/flink-sql as a user would, as a subprocess, on scripts that need only Flink's built-in
 * connectors. The build step is switched off (FLINK_SQL_SKIP_BUILD): Maven has just built what the
 * script runs, and a test must not start a nested Maven build.
 */
class FlinkSqlScriptITCase {
    private static final Path ROOT = Path.of(System.getProperty("streamhouse.root", "..")).toAbsolutePath().normalize();
    private static final Duration TIMEOUT = Duration.ofMinutes(5);

    @TempDir
    Path workDir;

    @Test
    void smokeScriptPrintsItsResultTables() throws Exception {
        ProcessRun run = flinkSql("-f", ROOT.resolve("examples/smoke.sql").toString());

        assertThat(run.exitCode).as(run.output).isZero();
        assertThat(Tableau.rows(run.output, "orders", "first_id", "last_id", "amounts_in_range"))
                .containsExactly(List.of("10", "1", "10", "10"));
        assertThat(Tableau.rows(run.output, "k", "v", "k10"))
                .containsExactly(List.of("2", "TWO", "20"), List.of("3", "THREE", "30"));
        // The INSERT into the print connector ran to completion before the SELECTs (table.dml-sync).
        assertThat(run.output).contains("smoke> +I[1, ", "smoke> +I[2, ", "smoke> +I[3, ")
                .doesNotContain("smoke> +I[4, ")
                .doesNotContain("[ERROR]");
        // Flink's warnings about the embedded set-up stay in the log file.
        assertThat(run.output).doesNotContain("WARN ", "FlinkYarnSessionCli", "Exception");
        System.out.printf("bin/flink-sql -f examples/smoke.sql took %.1f s%n", run.elapsed.toMillis() / 1000.0);
    }

    @Test
    void failingStatementStopsTheScriptWithNonZeroExit() throws Exception {
        Path script = workDir.resolve("failing.sql");
        Files.writeString(script, String.join("\n",
                "-- a comment; with a semicolon",
                "SET 'execution.runtime-mode' = 'batch';",
                "SET;",
                "SELECT * FROM no_such_table;",
                "SELECT 'not reached' AS after_failure;",
                ""));

        ProcessRun run = flinkSql("-D", "pipeline.name=runner-option-check", "-f", script.toString());

        assertThat(run.exitCode).as(run.output).isEqualTo(1);
        assertThat(run.output)
                .contains("Object 'no_such_table' not found")
                .contains("flink-sql: a statement failed")
                .doesNotContain("not reached");
        // -D options reach the session configuration.
        assertThat(Tableau.rows(run.output, "key", "value"))
                .contains(List.of("pipeline.name", "runner-option-check"), List.of("execution.runtime-mode", "batch"));
    }

    @Test
    void quickstartRunsAgainstThePaimonCatalog() throws Exception {
        ProcessRun run = flinkSql("-f", ROOT.resolve("examples/quickstart.sql").toString());

        assertThat(run.exitCode).as(run.output).isZero();
        assertThat(Tableau.rowsOfAll(run.output, "dt", "order_id", "customer", "amount")).containsExactly(
                // latest state: order 2 updated to 70.25
                List.of("2026-11-28", "1", "alice", "12.50"), List.of("2026-11-28", "2", "bob", "70.25"),
                List.of("2026-11-29", "3", "carol", "99.99"), List.of("2026-11-29", "4", "dave", "0.01"),
                // time travel to snapshot 1
                List.of("2026-11-28", "1", "alice", "12.50"), List.of("2026-11-28", "2", "bob", "7.25"),
                List.of("2026-11-29", "3", "carol", "99.99"));
        assertThat(Tableau.rows(run.output, "snapshot_id", "commit_kind", "total_record_count")).containsExactly(
                List.of("1", "APPEND", "3"), List.of("2", "APPEND", "4"), List.of("3", "APPEND", "5"));
        assertThat(Files.isDirectory(workDir.resolve("warehouse/shop.db/orders/snapshot"))).isTrue();
    }

    @Test
    void dataStreamExampleWritesAndReadsATable() throws Exception {
        List<String> command = List.of("bash", ROOT.resolve("bin/datastream-example").toString(),
                workDir.resolve("ds-warehouse").toString());
        ProcessRun run = ProcessRun.run(command, workDir, workDir.resolve("ds-output.txt"), TIMEOUT,
                (Map<String, String> env) -> {
                    env.put("FLINK_SQL_SKIP_BUILD", "1");
                    env.put("JAVA_HOME", System.getProperty("java.home"));
                });
        assertThat(run.exitCode).as(run.output).isZero();
        assertThat(run.output).contains("All users of examples.users:\n  1 | alice m. | fr\n  3 | carol | fr\n")
                .contains("Users in fr, names only:\n  alice m.\n  carol\n")
                .contains("Following the changes of examples.users:\n  +I 1 | alice m. | fr\n  +I 3 | carol | fr\n"
                        + "  +I 4 | dave | de\n");
    }

    private ProcessRun flinkSql(String... args) throws IOException, InterruptedException {
        List<String> command = new java.util.ArrayList<>(List.of("bash", ROOT.resolve("bin/flink-sql").toString()));
        command.addAll(List.of(args));
        Path logDir = Files.createDirectories(ROOT.resolve("paimon-sql-runner/target/logs"));
        String name = new Throwable().getStackTrace()[1].getMethodName();
        return ProcessRun.run(command, workDir, workDir.resolve("output.txt"), TIMEOUT, (Map<String, String> env) -> {
            env.put("FLINK_SQL_SKIP_BUILD", "1");
            env.put("FLINK_SQL_LOG", logDir.resolve("FlinkSqlScriptITCase-" + name + ".log").toString());
            env.put("JAVA_HOME", System.getProperty("java.home"));
            env.remove("FLINK_CONF_DIR");
            env.remove("WAREHOUSE");
            env.remove("FLINK_SQL_JAVA_OPTS");
        });
    }
}
