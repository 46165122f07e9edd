package dev.streamhouse.sqlrunner;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bin/flink-sql, run as a user runs it, on a table one of whose data files was truncated behind the
 * store's back: the statement fails with the error naming the table, the file, the partition and the
 * bucket and what is wrong, not with the decoder's bare {@code java.io.EOFException}.
 */
class DamagedFileScriptITCase {
    private static final Path ROOT = Path.of(System.getProperty("streamhouse.root", "..")).toAbsolutePath().normalize();
    private static final Duration TIMEOUT = Duration.ofMinutes(5);

    @TempDir
    Path workDir;

    @Test
    void truncatedDataFileIsNamedInTheScriptOutput() throws Exception {
        Path write = workDir.resolve("write.sql");
        Files.writeString(write, String.join("\n",
                "SET 'execution.runtime-mode' = 'batch';",
                "CREATE TABLE orders (dt STRING, id INT, amount INT, PRIMARY KEY (dt, id) NOT ENFORCED)",
                "  PARTITIONED BY (dt) WITH ('bucket' = '1');",
                "INSERT INTO orders VALUES ('2026-12-01', 1, 10), ('2026-12-01', 2, 20);",
                ""));
        ProcessRun written = flinkSql("write", "-f", write.toString());
        assertThat(written.exitCode).as(written.output).isZero();

        Path dataFile;
        try (Stream<Path> files = Files.walk(workDir.resolve("warehouse/default.db/orders/dt=2026-12-01/bucket-0"))) {
            dataFile = files.filter(p -> p.getFileName().toString().endsWith(".parquet")).findFirst().orElseThrow();
        }
        byte[] bytes = Files.readAllBytes(dataFile);
        Files.write(dataFile, java.util.Arrays.copyOf(bytes, bytes.length / 2));

        Path read = workDir.resolve("read.sql");
        Files.writeString(read, String.join("\n",
                "SET 'execution.runtime-mode' = 'batch';",
                "SET 'sql-client.execution.result-mode' = 'tableau';",
                "SELECT id, amount FROM orders;",
                "SELECT 'not reached' AS after_failure;",
                ""));
        ProcessRun run = flinkSql("read", "-f", read.toString());

        assertThat(run.exitCode).as(run.output).isEqualTo(1);
        String error = run.output.substring(Math.max(0, run.output.indexOf("[ERROR]")));
        assertThat(error).as(run.output)
                .contains("CorruptDataFileException: Cannot read data file ")
                .contains(dataFile.getFileName().toString())
                .contains("of table default.orders")
                .contains("(partition dt=2026-12-01, bucket 0)")
                .contains("it has " + bytes.length / 2 + " bytes but " + bytes.length + " were written (truncated)")
                .contains("CALL sys.rollback_to");
        assertThat(run.output).doesNotContain("not reached").doesNotContain("Reason:\njava.io.EOFException");
        System.out.println("bin/flink-sql on a truncated data file:\n" + error);
    }

    private ProcessRun flinkSql(String name, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("bash", ROOT.resolve("bin/flink-sql").toString(),
                "-hist", workDir.resolve("flink-sql-history").toString()));
        command.addAll(List.of(args));
        Path log = Files.createDirectories(ROOT.resolve("paimon-sql-runner/target/logs"))
                .resolve("DamagedFileScriptITCase-" + name + ".log");
        return ProcessRun.run(command, workDir, workDir.resolve(name + "-output.txt"), TIMEOUT,
                (Map<String, String> env) -> {
                    env.put("FLINK_SQL_SKIP_BUILD", "1");
                    env.put("FLINK_SQL_LOG", log.toString());
                    env.put("JAVA_HOME", System.getProperty("java.home"));
                    env.remove("FLINK_CONF_DIR");
                    env.remove("WAREHOUSE");
                    env.remove("FLINK_SQL_JAVA_OPTS");
                });
    }
}
