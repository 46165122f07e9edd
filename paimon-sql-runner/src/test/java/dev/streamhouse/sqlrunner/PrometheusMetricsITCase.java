package dev.streamhouse.sqlrunner;

import dev.streamhouse.flink.cdc.testing.MariaDbExtension;
import dev.streamhouse.storage.catalog.Catalog;
import dev.streamhouse.storage.catalog.CatalogFactory;
import dev.streamhouse.storage.catalog.Identifier;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.table.system.SystemTable;
import dev.streamhouse.storage.table.system.SystemTables;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A table's metrics where people look for them: bin/flink-sql (a streaming INSERT into a primary-key
 * table) and bin/cdc (a MySQL table sync) run with {@code PROMETHEUS_PORT}, and while the job runs this
 * test scrapes Flink's Prometheus reporter over HTTP, as Prometheus would, and finds the committer's
 * {@code commit} metrics of the table with values that agree with the table's {@code $snapshots}. Values move while the job runs, so
 * the test polls (no timing assertions) and compares a scraped snapshot id with the snapshots that
 * exist after the scrape.
 */
class PrometheusMetricsITCase {
    private static final Path ROOT = Path.of(System.getProperty("streamhouse.root", "..")).toAbsolutePath().normalize();
    private static final Duration WAIT = Duration.ofMinutes(3);
    /** Prometheus's name of a commit metric: the scope components joined with '_', the table as a label. */
    private static final String COMMIT_PREFIX = "flink_taskmanager_job_task_operator_paimon_table_commit_";

    @TempDir
    Path workDir;

    @Test
    void commitMetricsOfAStreamingInsertAreScrapedOverHttp() throws Exception {
        int port = freeLoopbackPort();
        Path script = workDir.resolve("stream.sql");
        Files.writeString(script, String.join("\n",
                "SET 'execution.checkpointing.interval' = '1s';",
                "CREATE TABLE t (id INT, v STRING, PRIMARY KEY (id) NOT ENFORCED) WITH ('bucket' = '1');",
                "CREATE TEMPORARY TABLE gen (id INT, v STRING) WITH ('connector' = 'datagen',",
                "  'rows-per-second' = '10', 'fields.id.min' = '1', 'fields.id.max' = '50', 'fields.v.length' = '3');",
                "INSERT INTO t SELECT id, v FROM gen;",
                ""));
        List<String> command = List.of("bash", ROOT.resolve("bin/flink-sql").toString(),
                "-hist", workDir.resolve("flink-sql-history").toString(), "-f", script.toString());

        try (BackgroundRun run = BackgroundRun.start(command, workDir, workDir.resolve("output.txt"), env -> {
            environment(env, port);
            env.put("FLINK_SQL_LOG", logOf("flink-sql").toString());
            env.put("WAREHOUSE", workDir.resolve("warehouse").toString());
            env.remove("FLINK_CONF_DIR");
            env.remove("FLINK_SQL_JAVA_OPTS");
        })) {
            run.awaitOutput("flink-sql: metrics for Prometheus at http://localhost:" + port + "/metrics", WAIT);
            Map<String, Sample> samples = awaitCommitMetrics(run, port, "t");
            assertAgreesWithSnapshots(samples, Identifier.of("default", "t"));
            run.stop(WAIT);
        }
    }

    /**
     * bin/cdc, the other script with PROMETHEUS_PORT: a MySQL table sync's commit metrics, scraped while
     * it runs; SIGTERM then stops it with a savepoint as usual (the action's arguments came through).
     */
    @Test
    void commitMetricsOfACdcSyncAreScrapedOverHttp() throws Exception {
        MariaDbExtension mariaDb = new MariaDbExtension();
        mariaDb.start();
        try {
            mariaDb.execute("CREATE DATABASE shop", "CREATE TABLE shop.orders (id INT PRIMARY KEY, amount INT)",
                    "INSERT INTO shop.orders VALUES (1, 10), (2, 20)");
            int port = freeLoopbackPort();
            List<String> command = List.of("bash", ROOT.resolve("bin/cdc").toString(), "mysql_sync_table",
                    "--warehouse", workDir.resolve("warehouse").toUri().toString(), "--database", "ods",
                    "--table", "orders", "--mysql_conf", "hostname=" + mariaDb.host(),
                    "--mysql_conf", "port=" + mariaDb.port(), "--mysql_conf", "username=" + MariaDbExtension.CDC_USER,
                    "--mysql_conf", "password=" + MariaDbExtension.CDC_PASSWORD,
                    "--mysql_conf", "database-name=shop", "--mysql_conf", "table-name=orders",
                    "-D", "execution.checkpointing.interval=1s");
            try (BackgroundRun run = BackgroundRun.start(command, workDir, workDir.resolve("cdc-output.txt"), env -> {
                environment(env, port);
                env.put("CDC_LOG", logOf("cdc").toString());
                env.put("CDC_SAVEPOINTS", workDir.resolve("savepoints").toString());
                env.remove("CDC_JAVA_OPTS");
            })) {
                run.awaitOutput("cdc: metrics for Prometheus at http://localhost:" + port + "/metrics", WAIT);
                run.awaitOutput("Submitted MySQL-Paimon Table Sync: ods.orders as job ", WAIT);
                Map<String, Sample> samples = awaitCommitMetrics(run, port, "orders");
                assertAgreesWithSnapshots(samples, Identifier.of("ods", "orders"));
                run.stop(WAIT);
                assertThat(run.output()).containsPattern("Stopped job [0-9a-f]{32} with savepoint ");
            }
        } finally {
            mariaDb.stop();
        }
    }

    private static void environment(Map<String, String> env, int prometheusPort) {
        env.put("FLINK_SQL_SKIP_BUILD", "1");
        env.put("JAVA_HOME", System.getProperty("java.home"));
        env.put("PROMETHEUS_PORT", Integer.toString(prometheusPort));
    }

    private static Path logOf(String script) {
        return ROOT.resolve("paimon-sql-runner/target/logs/PrometheusMetricsITCase-" + script + ".log");
    }

    /**
     * Scrapes until the commit metrics of {@code table} show a commit that added files and made a
     * snapshot (before the first commit the gauges read 0 and the snapshot id -1); those metrics.
     */
    private static Map<String, Sample> awaitCommitMetrics(BackgroundRun run, int port, String table) {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        URI metrics = URI.create("http://127.0.0.1:" + port + "/metrics");
        AtomicReference<Map<String, Sample>> scraped = new AtomicReference<>();
        await().atMost(WAIT).pollInterval(Duration.ofSeconds(1)).ignoreExceptionsInstanceOf(IOException.class)
                .until(() -> {
                    if (!run.isAlive()) {
                        throw new AssertionError("The job's process ended while the job should run:\n" + run.output());
                    }
                    Map<String, Sample> samples = commitSamplesOfTable(scrape(http, metrics), table);
                    scraped.set(samples);
                    Sample snapshotId = samples.get("lastCommittedSnapshotId");
                    Sample filesAdded = samples.get("lastTableFilesAdded");
                    Sample generated = samples.get("lastGeneratedSnapshots");
                    // A scrape reads the gauges one by one: one taken while the first commit reports may
                    // show some gauges before it and some after, so wait for one that shows all of it.
                    return snapshotId != null && snapshotId.value >= 1 && filesAdded != null && filesAdded.value > 0
                            && generated != null && generated.value >= 1;
                });
        return scraped.get();
    }

    /**
     * The scraped snapshot id is one of the table's snapshots (read after the scrape, so it may have
     * more), and the gauges of the same scrape describe a commit that made a snapshot.
     */
    private void assertAgreesWithSnapshots(Map<String, Sample> samples, Identifier table) throws Exception {
        List<Long> snapshotIds = snapshotIds(workDir.resolve("warehouse"), table);
        long committed = (long) samples.get("lastCommittedSnapshotId").value;
        assertThat(snapshotIds).as("snapshot_id of %s$snapshots, read after the scrape", table).contains(committed);
        assertThat(committed).isLessThanOrEqualTo(snapshotIds.stream().mapToLong(Long::longValue).max().orElseThrow());
        assertThat(samples.get("lastTableFilesAdded").value).isGreaterThan(0);
        assertThat(samples.get("lastGeneratedSnapshots").value).isGreaterThanOrEqualTo(1);
        // The commit group sits on the committer operator, and the table is a label.
        assertThat(samples.get("lastCommittedSnapshotId").labels)
                .containsEntry("table", table.table())
                .hasEntrySatisfying("operator_name", name -> assertThat(name).startsWith("Committer"));
        assertThat(samples).containsKeys("lastCommitDuration", "lastCommitAttempts", "lastCommitFreshness",
                "commitDuration_count");
    }

    /** A sample of the exposition format: its labels and value. */
    private record Sample(Map<String, String> labels, double value) {}

    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)\\{(.*)} (\\S+)$");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\",?");

    /** The commit metrics of table {@code table}, by metric name (without the scope prefix). */
    private static Map<String, Sample> commitSamplesOfTable(String exposition, String table) {
        Map<String, Sample> samples = new HashMap<>();
        for (String line : exposition.split("\n")) {
            Matcher m = SAMPLE.matcher(line);
            if (!m.matches() || !m.group(1).startsWith(COMMIT_PREFIX)) {
                continue;
            }
            Map<String, String> labels = new HashMap<>();
            Matcher l = LABEL.matcher(m.group(2));
            while (l.find()) {
                labels.put(l.group(1), l.group(2));
            }
            if (table.equals(labels.get("table"))) {
                samples.put(m.group(1).substring(COMMIT_PREFIX.length()), new Sample(labels, Double.parseDouble(m.group(3))));
            }
        }
        return samples;
    }

    private static String scrape(HttpClient http, URI uri) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new IOException("GET " + uri + " answered " + response.statusCode());
        }
        return response.body();
    }

    /** The snapshot_id column of the table's {@code $snapshots}. */
    private static List<Long> snapshotIds(Path warehouse, Identifier id) throws Exception {
        try (Catalog catalog = CatalogFactory.createCatalog(Options.of("warehouse", warehouse.toUri().toString()))) {
            SystemTable snapshots = SystemTables.of(catalog.getTable(id), "snapshots").orElseThrow();
            int column = snapshots.rowType().fieldNames().indexOf("snapshot_id");
            List<Long> ids = new ArrayList<>();
            snapshots.newRead().withProjection(new int[] {column}).createReader()
                    .forEachRemaining(row -> ids.add(row.longAt(0)));
            return ids;
        }
    }

    private static int freeLoopbackPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
