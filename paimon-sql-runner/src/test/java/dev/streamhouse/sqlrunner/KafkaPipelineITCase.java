package dev.streamhouse.sqlrunner;

import dev.streamhouse.storage.catalog.Catalog;
import dev.streamhouse.storage.catalog.CatalogFactory;
import dev.streamhouse.storage.catalog.Identifier;
import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.schema.Schema;
import dev.streamhouse.storage.testutils.TestTables;
import dev.streamhouse.storage.types.DataTypes;
import dev.streamhouse.testing.kafka.KafkaExtension;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.runtime.client.JobStatusMessage;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The Kafka pipeline of docs/kafka.md ({@code examples/kafka/pipeline.sql}) run unchanged by bin/flink-sql
 * against a real Kafka broker, its jobs on a MiniCluster of this test: JSON events with the record's
 * timestamp, partition and offset, a computed event time and a watermark, enriched by a lookup join
 * against a primary-key table that is updated while the job runs, one statement set writing an append
 * table and an aggregate. The TaskManager is then killed while more events arrive; after the job has
 * restarted from its last checkpoint, every event is in the append table exactly once and the totals
 * count each event once.
 */
class KafkaPipelineITCase {
    @RegisterExtension
    static final KafkaExtension KAFKA = new KafkaExtension();

    private static final Path ROOT = Path.of(System.getProperty("streamhouse.root", "..")).toAbsolutePath().normalize();
    private static final Duration WAIT = Duration.ofMinutes(3);
    private static SqlClientOnMiniCluster flink;
    private static MiniCluster cluster;

    @TempDir
    Path workDir;

    @BeforeAll
    static void startCluster() throws Exception {
        flink = SqlClientOnMiniCluster.start(4);
        cluster = flink.cluster();
    }

    @AfterAll
    static void stopCluster() throws Exception {
        if (flink != null) {
            flink.close();
        }
    }

    @Test
    void theSeedPipelineEnrichesEventsWithTheLatestDimensionAndLosesNothingWhenATaskManagerDies() throws Exception {
        KAFKA.createTopic("user_events", 2);
        Path warehouse = workDir.resolve("warehouse");
        send(1, 40, "2024-01-01");

        String script = Files.readString(ROOT.resolve("examples/kafka/pipeline.sql"), StandardCharsets.UTF_8)
                .replace("${BOOTSTRAP_SERVERS}", KAFKA.bootstrapServers())
                .replace("${WAREHOUSE}", warehouse.toUri().toString());
        Path scriptFile = workDir.resolve("pipeline.sql");
        Files.writeString(scriptFile, script, StandardCharsets.UTF_8);
        // The dimension exists before the job: the script creates it only if missing.
        Files.createDirectories(warehouse);
        runScript(scriptFile);
        List<JobStatusMessage> running = runningJobs();
        assertThat(running).as("the statement set's job").hasSize(1);

        // Without users yet: every event is enriched as 'unknown'.
        awaitEvents(40);
        assertThat(column("shop.enriched_events", 3)).containsOnly("unknown");

        writeUsers(GenericRow.of(1L, BinaryString.fromString("ann"), BinaryString.fromString("gold")),
                GenericRow.of(2L, BinaryString.fromString("bob"), BinaryString.fromString("silver")));
        send(41, 60, "2024-01-02");
        awaitEvents(60);
        List<String> later = rowsWhere("shop.enriched_events", r -> Integer.parseInt(r.get(0).substring(1)) > 40);
        assertThat(later).as("events after the users were written see them").allSatisfy(r ->
                assertThat(r).matches("e\\d+, (1, ann, gold|2, bob, silver|[34], null, unknown), .*"));

        // Kill the only TaskManager; events arrive while no task runs; a new TaskManager takes the job.
        cluster.terminateTaskManager(0).get();
        send(61, 100, "2024-01-03");
        cluster.startTaskManager();
        awaitEvents(100);

        List<String> ids = column("shop.enriched_events", 0);
        assertThat(ids).as("each event exactly once").hasSize(100).doesNotHaveDuplicates();
        // Events go round-robin over users 1..4 with amount = id: user u has the ids = u (mod 4).
        await().atMost(WAIT).untilAsserted(() -> assertThat(rows("shop.user_totals")).containsExactly(
                "+I(1, 25, 1225.00, " + lastTime(97) + ")", "+I(2, 25, 1250.00, " + lastTime(98) + ")",
                "+I(3, 25, 1275.00, " + lastTime(99) + ")", "+I(4, 25, 1300.00, " + lastTime(100) + ")"));
        List<String> partitions = column("shop.enriched_events", 8);
        assertThat(partitions).as("the kafka partition metadata").containsOnly("0", "1");
    }

    @Test
    void theSamePipelineAsADataStreamAndTableApiProgramEnrichesAndCountsEachEventOnce() throws Exception {
        KAFKA.createTopic("user_events_java", 1);
        Path warehouse = workDir.resolve("warehouse");
        try (Catalog catalog = catalog()) {
            catalog.createDatabase("shop", true);
            catalog.createTable(Identifier.of("shop", "users"), Schema.newBuilder()
                    .column("user_id", DataTypes.BIGINT()).column("name", DataTypes.STRING())
                    .column("tier", DataTypes.STRING()).primaryKey("user_id").option("bucket", "1").build(), false);
        }
        writeUsers(GenericRow.of(1L, BinaryString.fromString("ann"), BinaryString.fromString("gold")));
        List<Map.Entry<String, String>> records = new ArrayList<>();
        for (int id = 1; id <= 6; id++) {
            records.add(new AbstractMap.SimpleEntry<>(null, "{\"event_id\":\"e" + id + "\",\"user_id\":"
                    + ((id - 1) % 2 + 1) + ",\"action\":\"buy\",\"amount\":" + id + ",\"ts\":"
                    + (1_700_000_000_000L + id * 1000L) + "}"));
        }
        KAFKA.send("user_events_java", 0, records);

        ProcessRun run = ProcessRun.run(List.of("bash", ROOT.resolve("bin/kafka-example").toString(),
                        KAFKA.bootstrapServers(), "user_events_java", warehouse.toString()),
                workDir, workDir.resolve("example.txt"), WAIT, (Map<String, String> env) -> {
                    env.put("FLINK_SQL_SKIP_BUILD", "1");
                    env.put("JAVA_HOME", System.getProperty("java.home"));
                });
        assertThat(run.exitCode).as(run.output).isZero();
        assertThat(rowsWhere("shop.enriched_events", r -> true)).extracting(r -> r.substring(0, r.indexOf(", buy")))
                .containsExactly("e1, 1, ann, gold", "e2, 2, null, unknown", "e3, 1, ann, gold",
                        "e4, 2, null, unknown", "e5, 1, ann, gold", "e6, 2, null, unknown");
        assertThat(rows("shop.user_totals")).containsExactly("+I(1, 3, 9.00, 2023-11-14T22:13:25)",
                "+I(2, 3, 12.00, 2023-11-14T22:13:26)");
    }

    /** Events {@code from..to}: user (id - 1) % 4 + 1, amount id, event time the day plus id seconds. */
    private static void send(int from, int to, String day) {
        for (int partition = 0; partition < 2; partition++) {
            List<Map.Entry<String, String>> records = new ArrayList<>();
            for (int id = from; id <= to; id++) {
                if (id % 2 != partition) {
                    continue;
                }
                long ts = java.time.Instant.parse(day + "T00:00:00Z").toEpochMilli() + id * 1000L;
                records.add(new AbstractMap.SimpleEntry<>(null, "{\"event_id\":\"e" + id + "\",\"user_id\":"
                        + ((id - 1) % 4 + 1) + ",\"action\":\"buy\",\"amount\":" + id + ",\"ts\":" + ts + "}"));
            }
            KAFKA.send("user_events", partition, records);
        }
    }

    private static String lastTime(int id) {
        return java.time.Instant.parse("2024-01-03T00:00:00Z").plusSeconds(id).toString().replace("Z", "");
    }

    private void runScript(Path scriptFile) throws Exception {
        ProcessRun run = flink.runScript(scriptFile, workDir, null, WAIT);
        assertThat(run.exitCode).as(run.output).isZero();
        assertThat(run.output).as(run.output).doesNotContain("[ERROR]");
    }

    private static List<JobStatusMessage> runningJobs() throws Exception {
        Collection<JobStatusMessage> jobs = cluster.listJobs().get();
        return jobs.stream().filter(j -> j.getJobState() == JobStatus.RUNNING
                || j.getJobState() == JobStatus.CREATED || j.getJobState() == JobStatus.INITIALIZING).toList();
    }

    private void awaitEvents(int count) {
        await().atMost(WAIT).pollInterval(Duration.ofMillis(300))
                .untilAsserted(() -> assertThat(rows("shop.enriched_events")).hasSizeGreaterThanOrEqualTo(count));
    }

    private Catalog catalog() {
        return CatalogFactory.createCatalog(new Options(Map.of("warehouse", workDir.resolve("warehouse").toUri()
                .toString())));
    }

    private void writeUsers(InternalRow... users) throws Exception {
        try (Catalog catalog = catalog()) {
            TestTables.write(catalog.getTable(Identifier.of("shop", "users")), List.of(users));
        }
    }

    private List<String> rows(String table) {
        try (Catalog catalog = catalog()) {
            List<String> out = new ArrayList<>();
            for (String row : TestTables.readAll(catalog.getTable(Identifier.fromString(table)))) {
                out.add(row.replaceFirst("^[-+][IUD]", "+I"));
            }
            out.sort(null);
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Rows as their fields' text (without the row kind), those {@code filter} accepts, joined by ", ". */
    private List<String> rowsWhere(String table, java.util.function.Predicate<List<String>> filter) {
        List<String> out = new ArrayList<>();
        for (String row : rows(table)) {
            List<String> fields = fields(row);
            if (filter.test(fields)) {
                out.add(String.join(", ", fields));
            }
        }
        return out;
    }

    private List<String> column(String table, int index) {
        List<String> out = new ArrayList<>();
        for (String row : rows(table)) {
            out.add(fields(row).get(index));
        }
        return out;
    }

    private static List<String> fields(String row) {
        String body = row.substring(row.indexOf('(') + 1, row.lastIndexOf(')'));
        return List.of(body.split(", ", -1));
    }
}
