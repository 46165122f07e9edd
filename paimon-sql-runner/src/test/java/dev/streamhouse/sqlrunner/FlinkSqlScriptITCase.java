package dev.streamhouse.sqlrunner;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs bin/flink-sql as a user would, as a subprocess, on scripts that need only Flink's built-in
 * connectors. The build step is switched off (FLINK_SQL_SKIP_BUILD): Maven has just built what the
 * script runs, and a test must not start a nested Maven build. Each run gets a history file in the
 * test's directory, never the user's ~/.flink-sql-history.
 */
class FlinkSqlScriptITCase {
    private static final Path ROOT = Path.of(System.getProperty("streamhouse.root", "..")).toAbsolutePath().normalize();
    private static final Duration TIMEOUT = Duration.ofMinutes(5);

    @TempDir
    Path workDir;

    @org.junit.jupiter.api.extension.RegisterExtension
    static final dev.streamhouse.fs.s3.S3ProxyExtension S3 = new dev.streamhouse.fs.s3.S3ProxyExtension();

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

    /**
     * What bin/flink-sql adds to the SQL client, in two runs sharing one log and one history file:
     * {@code --help} starts with the wrapper's own section; {@code -f} shows each statement in full
     * before its result, and an INSERT whose job fails shows the job's error; the second run appends to
     * the log; the history file is owner-only and keeps its earlier entries. Soft assertions, so that a
     * run reports every one of these that does not hold.
     */
    @Test
    void helpFullStatementsRootCauseLogHistoryAndPermissions() throws Exception {
        Path log = logOf("helpFullStatementsRootCauseLogHistoryAndPermissions");
        Files.deleteIfExists(log);
        Path history = workDir.resolve("history");
        Files.writeString(history, "1796125313391:SELECT 'from an earlier session';\n");
        Files.setPosixFilePermissions(history, PosixFilePermissions.fromString("rw-r--r--"));
        Path script = workDir.resolve("statements.sql");
        String multiLine = "SELECT 'multi' AS word,\n  CAST(2 AS INT) AS n;";
        String failingInsert = "INSERT INTO sink SELECT CAST('abc' AS INT), 'x';";
        Files.writeString(script, String.join("\n",
                "SET 'execution.runtime-mode' = 'batch';",
                "CREATE TEMPORARY TABLE sink (id INT, v STRING) WITH ('connector' = 'blackhole');",
                multiLine,
                failingInsert,
                "SELECT 'not reached' AS after_failure;",
                ""));

        ProcessRun help = flinkSql("--help");
        ProcessRun run = flinkSql("-hist", history.toString(), "-f", script.toString());

        SoftAssertions softly = new SoftAssertions();
        // --help: the wrapper's section first, then the SQL client's own help.
        softly.assertThat(help.exitCode).as(help.output).isZero();
        softly.assertThat(help.output).as("--help")
                .startsWith("bin/flink-sql: Flink " + ProcessRun.flinkLine() + "'s SQL client");
        int flinkHelp = help.output.indexOf("Mode \"embedded\" (default)");
        softly.assertThat(flinkHelp).as("Flink's help in:%n%s", help.output).isPositive();
        for (String wrapperPart : List.of("WAREHOUSE", "FLINK_LINE", "FLINK_SQL_LOG", "FLINK_SQL_JAVA_OPTS", "FLINK_CONF_DIR",
                "CREATE CATALOG paimon", "USE CATALOG paimon", log.toString(), "0600")) {
            softly.assertThat(help.output.indexOf(wrapperPart)).as("%s before Flink's help in:%n%s", wrapperPart, help.output)
                    .isBetween(0, flinkHelp);
        }

        // -f: each statement in full, then its result; the failing INSERT reports the job's own error.
        softly.assertThat(run.exitCode).as(run.output).isEqualTo(1);
        String[] echoes = {
            "Flink SQL> SET 'execution.runtime-mode' = 'batch';\n",
            "Flink SQL> CREATE TEMPORARY TABLE sink (id INT, v STRING) WITH ('connector' = 'blackhole');\n",
            "Flink SQL> SELECT 'multi' AS word,\n>   CAST(2 AS INT) AS n;\n",
            "Flink SQL> " + failingInsert + "\n"};
        String[] results = {"[INFO] Execute statement succeeded.", "[INFO] Execute statement succeeded.",
            "1 row in set", "java.lang.NumberFormatException: For input string: 'abc'"};
        int from = 0;
        for (int i = 0; i < echoes.length; i++) {
            int echo = run.output.indexOf(echoes[i], from);
            softly.assertThat(echo).as("statement %d in full, after the previous result, in:%n%s", i + 1, run.output)
                    .isNotNegative();
            int result = run.output.indexOf(results[i], echo < 0 ? from : echo + echoes[i].length());
            softly.assertThat(result).as("result of statement %d after it, in:%n%s", i + 1, run.output).isNotNegative();
            from = Math.max(from, result);
        }
        softly.assertThat(Tableau.rowsOfAll(run.output, "word", "n")).containsExactly(List.of("multi", "2"));
        softly.assertThat(run.output).doesNotContain("MiniCluster is not yet running", "not reached");

        // The log: the second run appended, and each run starts with a header naming its pid and arguments.
        String logText = Files.readString(log);
        Matcher headers = Pattern.compile("===== bin/flink-sql run: pid \\d+, working directory .*, arguments: (.*)")
                .matcher(logText);
        List<String> arguments = new java.util.ArrayList<>();
        while (headers.find()) {
            arguments.add(headers.group(1));
        }
        softly.assertThat(arguments).as("run headers in %s", log).hasSize(2);
        if (arguments.size() == 2) {
            softly.assertThat(arguments.get(0)).contains("--help");
            softly.assertThat(arguments.get(1)).contains("-f " + script);
        }
        softly.assertThat(permissions(log)).as("permissions of %s", log).isEqualTo("rw-------");

        // The history: owner-only, earlier entries kept, this run's statements added.
        softly.assertThat(permissions(history)).as("permissions of the history file").isEqualTo("rw-------");
        softly.assertThat(Files.readString(history)).contains("SELECT 'from an earlier session';", failingInsert);
        softly.assertAll();
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

    private static String permissions(Path file) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(file));
    }

    private static Path logOf(String testName) throws IOException {
        Path logDir = Files.createDirectories(ROOT.resolve("paimon-sql-runner/target/logs"));
        return logDir.resolve("FlinkSqlScriptITCase-" + testName + ".log");
    }

    /**
     * A paimon catalog on an {@code s3://} warehouse in bin/flink-sql: tables written and read through
     * S3, and the script's echo never shows the credentials. On the default Flink line only: the S3 code
     * is the same on every line (pom.xml, surefire.excludedGroups).
     */
    @Test
    @Tag("default-line-only")
    void aScriptWritesAndReadsAnS3Warehouse() throws Exception {
        StringBuilder catalog = new StringBuilder("CREATE CATALOG lake WITH ('type' = 'paimon', 'warehouse' = '"
                + S3.uri("sql-warehouse") + "'");
        S3.s3Options().forEach((k, v) -> catalog.append(",\n  '").append(k).append("' = '").append(v).append("'"));
        Path script = workDir.resolve("s3.sql");
        Files.writeString(script, String.join("\n",
                catalog + ");",
                "USE CATALOG lake;",
                "SET 'execution.runtime-mode' = 'batch';",
                "SET 'sql-client.execution.result-mode' = 'tableau';",
                "CREATE TABLE orders (id INT, amount INT, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket' = '2');",
                "INSERT INTO orders VALUES (1, 10), (2, 20), (3, 30);",
                "INSERT INTO orders VALUES (2, 200);",
                "SELECT id AS s3_id, amount AS s3_amount FROM orders ORDER BY id;",
                "SELECT COUNT(*) AS s3_snapshots FROM `orders$snapshots`;",
                ""));

        ProcessRun run = flinkSql("-f", script.toString());

        assertThat(run.exitCode).as(run.output).isZero();
        assertThat(Tableau.rows(run.output, "s3_id", "s3_amount"))
                .containsExactly(List.of("1", "10"), List.of("2", "200"), List.of("3", "30"));
        assertThat(Tableau.rows(run.output, "s3_snapshots")).containsExactly(List.of("2"));
        assertThat(run.output).contains("'s3.secret-key' = '******'")
                .doesNotContain(dev.streamhouse.fs.s3.S3ProxyExtension.SECRET_KEY)
                .doesNotContain(dev.streamhouse.fs.s3.S3ProxyExtension.ACCESS_KEY)
                .doesNotContain("[ERROR]");
    }

    /**
     * FLINK_LINE picks the line bin/flink-sql builds and runs: one it does not know is refused, and so
     * is running (FLINK_SQL_SKIP_BUILD) what is built for another line.
     */
    @Test
    void refusesAFlinkLineOtherThanTheBuiltOne() throws Exception {
        String other = ProcessRun.flinkLine().equals("1.20") ? "2.2" : "1.20";
        Path script = workDir.resolve("select.sql");
        Files.writeString(script, "SELECT 'the-query-ran' AS outcome;\n");

        ProcessRun otherLine = flinkSqlOnLine(other, "-f", script.toString());
        ProcessRun unknownLine = flinkSqlOnLine("1.19", "-f", script.toString());

        assertThat(otherLine.exitCode).as(otherLine.output).isEqualTo(2);
        assertThat(otherLine.output).contains("what is built is for Flink " + ProcessRun.flinkLine()
                + ", FLINK_LINE is " + other).doesNotContain("the-query-ran");
        assertThat(unknownLine.exitCode).as(unknownLine.output).isEqualTo(2);
        assertThat(unknownLine.output).contains("unsupported FLINK_LINE '1.19'").doesNotContain("the-query-ran");
    }

    private ProcessRun flinkSqlOnLine(String line, String... args) throws IOException, InterruptedException {
        List<String> command = new java.util.ArrayList<>(List.of("bash", ROOT.resolve("bin/flink-sql").toString(),
                "-hist", workDir.resolve("flink-sql-history").toString()));
        command.addAll(List.of(args));
        return ProcessRun.run(command, workDir, workDir.resolve("output-" + line + ".txt"), TIMEOUT,
                (Map<String, String> env) -> {
                    env.put("FLINK_LINE", line);
                    env.put("FLINK_SQL_SKIP_BUILD", "1");
                    env.put("JAVA_HOME", System.getProperty("java.home"));
                });
    }

    private ProcessRun flinkSql(String... args) throws IOException, InterruptedException {
        List<String> command = new java.util.ArrayList<>(List.of("bash", ROOT.resolve("bin/flink-sql").toString()));
        if (!List.of(args).contains("-hist")) {
            // Never the user's ~/.flink-sql-history.
            command.addAll(List.of("-hist", workDir.resolve("flink-sql-history").toString()));
        }
        command.addAll(List.of(args));
        Path log = logOf(new Throwable().getStackTrace()[1].getMethodName());
        return ProcessRun.run(command, workDir, workDir.resolve("output.txt"), TIMEOUT, (Map<String, String> env) -> {
            env.put("FLINK_SQL_SKIP_BUILD", "1");
            env.put("FLINK_SQL_LOG", log.toString());
            env.put("JAVA_HOME", System.getProperty("java.home"));
            env.remove("FLINK_CONF_DIR");
            env.remove("WAREHOUSE");
            env.remove("FLINK_SQL_JAVA_OPTS");
        });
    }
}
