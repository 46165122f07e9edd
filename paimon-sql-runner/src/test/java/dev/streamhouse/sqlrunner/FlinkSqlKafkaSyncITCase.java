package dev.streamhouse.sqlrunner;

import dev.streamhouse.flink.cdc.testing.SyncedWarehouse;
import dev.streamhouse.storage.catalog.Catalog;
import dev.streamhouse.storage.catalog.Identifier;
import dev.streamhouse.testing.kafka.KafkaExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * bin/flink-sql's {@code CREATE TABLE ... AS TABLE} and {@code CREATE DATABASE ... AS DATABASE} from a
 * {@code 'type' = 'kafka'} catalog against a real broker, run as a user runs them (the script is
 * {@code examples/kafka/sync.sql}, which docs/kafka.md quotes): the catalog shows
 * the topics as tables with the columns and key their Canal records give; a script's two sync jobs
 * keep running after its last statement while changes arrive in the topics, until SIGTERM cancels
 * them; mistakes give one message naming what to fix.
 */
class FlinkSqlKafkaSyncITCase {
    @RegisterExtension
    static final KafkaExtension KAFKA = new KafkaExtension();

    private static final Path ROOT = Path.of(System.getProperty("streamhouse.root", "..")).toAbsolutePath().normalize();
    private static final Duration WAIT = Duration.ofMinutes(2);

    @TempDir
    Path workDir;

    private String kafkaCatalog() {
        return "CREATE CATALOG kafka WITH ('type' = 'kafka', 'properties.bootstrap.servers' = '"
                + KAFKA.bootstrapServers() + "', 'value.format' = 'canal-json');";
    }

    /** A Canal record of table shop.{@code table} ({@code type} INSERT, UPDATE or DELETE). */
    private static String canal(String table, String type, String types, String data, String old) {
        return "{\"data\":[" + data + "]" + (old == null ? "" : ",\"old\":[" + old + "]") + ",\"mysqlType\":{" + types
                + "},\"pkNames\":[\"id\"],\"database\":\"shop\",\"table\":\"" + table + "\",\"isDdl\":false,"
                + "\"es\":1700000000000,\"type\":\"" + type + "\"}";
    }

    private static final String ORDER_TYPES = "\"id\":\"int(11)\",\"amount\":\"decimal(10,2)\"";
    private static final String ITEM_TYPES = "\"id\":\"int(11)\",\"name\":\"varchar(10)\"";

    @Test
    void createTableAndDatabaseAsTopicsFollowChangesUntilStopped() throws Exception {
        KAFKA.createTopic("shop_orders", 2);
        KAFKA.createTopic("shop_items", 1);
        KAFKA.createTopic("audit", 1);
        KAFKA.send("shop_orders", canal("orders", "INSERT", ORDER_TYPES, "{\"id\":\"1\",\"amount\":\"10.50\"}", null),
                canal("orders", "INSERT", ORDER_TYPES, "{\"id\":\"2\",\"amount\":\"20.00\"}", null));
        KAFKA.send("shop_items", canal("items", "INSERT", ITEM_TYPES, "{\"id\":\"7\",\"name\":\"pen\"}", null));
        KAFKA.send("audit", canal("audit_log", "INSERT", ITEM_TYPES, "{\"id\":\"1\",\"name\":\"x\"}", null));
        Path script = workDir.resolve("sync.sql");
        Files.writeString(script, Files.readString(ROOT.resolve("examples/kafka/sync.sql"), StandardCharsets.UTF_8)
                .replace("${BOOTSTRAP_SERVERS}", KAFKA.bootstrapServers()));

        try (BackgroundRun run = flinkSqlInBackground("-f", script.toString())) {
            run.awaitOutput("[INFO] The script's sync jobs keep running in this process", WAIT);
            assertThat(Tableau.rows(run.output(), "table name"))
                    .containsExactly(List.of("audit"), List.of("shop_items"), List.of("shop_orders"));
            assertThat(Tableau.rows(run.output(), "name", "type", "null", "key", "extras", "watermark")).containsExactly(
                    List.of("id", "INT", "FALSE", "PRI(id)", "", ""),
                    List.of("amount", "DECIMAL(10, 2)", "TRUE", "", "", ""));

            awaitRows("ods.orders", "+I(1, 10.50)", "+I(2, 20.00)");
            awaitRows("mirror.orders", "+I(1, 10.50)", "+I(2, 20.00)");
            awaitRows("mirror.items", "+I(7, pen)");
            KAFKA.send("shop_orders",
                    canal("orders", "UPDATE", ORDER_TYPES, "{\"id\":\"1\",\"amount\":\"11.00\"}", "{\"amount\":\"10.50\"}"),
                    canal("orders", "DELETE", ORDER_TYPES, "{\"id\":\"2\",\"amount\":\"20.00\"}", null));
            awaitRows("ods.orders", "+I(1, 11.00)");
            awaitRows("mirror.orders", "+I(1, 11.00)");
            try (Catalog catalog = warehouse().catalog()) {
                assertThat(catalog.listTables("mirror")).containsExactlyInAnyOrder("orders", "items");
                assertThat(catalog.getTable(Identifier.of("ods", "orders")).primaryKeys()).containsExactly("id");
            }

            assertThat(run.stop(WAIT)).as(run.output()).isEqualTo(143);
            assertThat(run.output()).contains("(Kafka-Paimon Table Sync: ods.orders)",
                    "(Kafka-Paimon Database Sync: mirror)").doesNotContain("[ERROR]", "\tat ");
        }
    }

    @Test
    void mistakesAreNamedWithoutStackTraces() throws Exception {
        KAFKA.createTopic("kv", 1);
        KAFKA.createTopic("quiet", 1);
        KAFKA.send("kv", canal("kv", "INSERT", ITEM_TYPES, "{\"id\":\"1\",\"name\":\"x\"}", null));
        Path statements = script("prompt.sql", kafkaCatalog(),
                "CREATE CATALOG bad WITH ('type' = 'kafka', 'properties.bootstrap.servers' = '"
                        + KAFKA.bootstrapServers() + "', 'value.format' = 'protobuf');",
                "CREATE CATALOG bad WITH ('type' = 'kafka', 'properties.bootstrap.servers' = '"
                        + KAFKA.bootstrapServers() + "', 'value.format' = 'canal-json', 'topic' = 'kv');",
                "CREATE TABLE ods.t AS TABLE kafka.kafka.no_such_topic;",
                "CREATE TABLE ods.t AS TABLE kafka.other.kv;",
                "CREATE TABLE ods.t AS TABLE kafka.kafka.kv /*+ OPTIONS('scan.startup.mode' = 'sometime') */;",
                "SELECT * FROM kafka.kafka.kv;",
                "DESCRIBE kafka.kafka.quiet;",
                "SET 'execution.runtime-mode' = 'batch';",
                "SELECT 'still at the prompt' AS message;");

        ProcessRun prompt = flinkSql(statements);

        assertThat(prompt.exitCode).as(prompt.output).isZero();
        List<String> errors = errors(prompt.output);
        assertThat(errors).hasSize(7);
        assertThat(errors.get(0)).contains("'protobuf'", "debezium-json");
        assertThat(errors.get(1)).contains("option 'topic' is not one of a kafka catalog");
        assertThat(errors.get(2)).contains("Cannot run CREATE TABLE ... AS TABLE: Kafka at " + KAFKA.bootstrapServers()
                + " has no topic no_such_topic");
        assertThat(errors.get(3)).contains("kafka catalog 'kafka' has one database, 'kafka'",
                "there is no database 'other'");
        assertThat(errors.get(4)).contains("scan.startup.mode=sometime is none of");
        assertThat(errors.get(5)).contains("Cannot query table `kafka`.`kafka`.`kv`", "'connector' = 'kafka'");
        assertThat(errors.get(6)).contains("topic quiet has no canal-json record with a row yet");
        assertThat(Tableau.rowsOfAll(prompt.output, "message")).containsExactly(List.of("still at the prompt"));
        assertThat(prompt.output).doesNotContain("\tat ", "Caused by");
    }

    /** The messages of the client's "[ERROR] Could not execute SQL statement. Reason:" blocks, in order. */
    private static List<String> errors(String output) {
        List<String> errors = new ArrayList<>();
        String[] lines = output.split("\n");
        for (int i = 0; i + 1 < lines.length; i++) {
            if (lines[i].contains("[ERROR] Could not execute SQL statement. Reason:")) {
                errors.add(lines[i + 1].replaceAll("\u001B\\[[0-9;]*m", ""));
            }
        }
        return errors;
    }

    private Path script(String name, String... lines) throws IOException {
        Path file = workDir.resolve(name);
        Files.writeString(file, String.join("\n", lines) + "\n");
        return file;
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
        env.put("FLINK_SQL_LOG", ROOT.resolve("paimon-sql-runner/target/logs/FlinkSqlKafkaSyncITCase.log").toString());
        env.put("JAVA_HOME", System.getProperty("java.home"));
        env.put("WAREHOUSE", workDir.resolve("warehouse").toString());
        env.remove("FLINK_CONF_DIR");
        env.remove("FLINK_SQL_JAVA_OPTS");
    }

    private BackgroundRun flinkSqlInBackground(String... args) throws IOException {
        return BackgroundRun.start(command(args), workDir, workDir.resolve("output.txt"), this::environment);
    }

    private ProcessRun flinkSql(Path input) throws IOException, InterruptedException {
        return ProcessRun.run(command(), workDir, workDir.resolve("output.txt"), WAIT, this::environment, input);
    }
}
