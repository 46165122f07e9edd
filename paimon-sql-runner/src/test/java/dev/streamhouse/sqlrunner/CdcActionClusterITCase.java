package dev.streamhouse.sqlrunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.streamhouse.flink.cdc.testing.MariaDbExtension;
import dev.streamhouse.flink.cdc.testing.SyncedWarehouse;
import dev.streamhouse.testing.kafka.KafkaExtension;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The sync actions and the MySQL connector on a real Flink cluster, deployed the two ways docs/mysql-cdc.md
 * describes: a standalone session cluster of separate JVMs whose lib/ is Flink's jars plus
 * paimon-flink-catalog's bundle, with {@code flink run -d paimon-flink-cdc-<version>-bundle.jar <action>}
 * submitting syncs with the cdc bundle as user jar (loaded child-first by Flink); and one whose lib/
 * also holds the cdc bundle, where Flink's SQL client gets the {@code mysql} catalog and the
 * {@code mysql-cdc} connector, and the Paimon catalog and the sync are on a Hive metastore (the bundle's
 * relocated Hive client, the metastore's commit lock). Against a private MariaDB and Hive metastore; the Paimon tables are read through the
 * storage API. The checkpoint interval is only in the cluster's config.yaml: jobs must have it (the
 * action takes its configuration from Flink's CLI). Flink's CLI returns once a job is submitted; the
 * jobs are then cancelled through the REST API and the cluster stopped.
 */
class CdcActionClusterITCase {
    @RegisterExtension
    static final dev.streamhouse.testing.hive.HiveMetastoreExtension METASTORE =
            new dev.streamhouse.testing.hive.HiveMetastoreExtension();

    @RegisterExtension
    static final MariaDbExtension MARIADB = new MariaDbExtension();

    @RegisterExtension
    static final KafkaExtension KAFKA = new KafkaExtension();

    private static final Path ROOT = Path.of(System.getProperty("streamhouse.root", "..")).toAbsolutePath().normalize();
    private static final Path CATALOG_BUNDLE = Path.of(System.getProperty("streamhouse.bundle",
            "../paimon-flink-catalog/target/paimon-flink-catalog-0.1.0-SNAPSHOT-flink-1.20-bundle.jar")).toAbsolutePath().normalize();
    private static final Path CDC_BUNDLE = Path.of(System.getProperty("streamhouse.cdc.bundle",
            "../paimon-flink-cdc/target/paimon-flink-cdc-0.1.0-SNAPSHOT-flink-1.20-bundle.jar")).toAbsolutePath().normalize();
    /** The runner's jar: Flink's SQL client needs its PythonDependencyUtils stand-in (see bin/bundle-smoke). */
    private static final Path RUNNER_JAR = Path.of(System.getProperty("streamhouse.runner.jar",
            "target/paimon-sql-runner-0.1.0-SNAPSHOT.jar")).toAbsolutePath().normalize();
    private static final Duration WAIT = Duration.ofMinutes(2);
    private static final Pattern CLI_JOB_ID = Pattern.compile("Job has been submitted with JobID ([0-9a-f]{32})");
    private static final Pattern SQL_JOB_ID = Pattern.compile("\nJob ID: ([0-9a-f]{32})\n");

    /** A test's steps on a running cluster; the ids of the jobs it submits go into {@code jobs}. */
    private interface OnCluster {
        void run(StandaloneFlinkCluster cluster, Path dir, List<String> jobs) throws Exception;
    }

    /**
     * Two syncs at once from the cdc bundle as user jar, so one TaskManager holds two user-code class
     * loaders and two Debezium engines (the JDBC driver a class loader's DriverManager does not let the
     * second job see, and colliding JMX names, failed here). The snapshot, then inserts, updates and
     * deletes, then ALTER TABLE ADD COLUMN.
     */
    @Test
    void syncActionsRunWithTheCdcBundleAsUserJar() throws Exception {
        MARIADB.execute("CREATE DATABASE shop",
                "CREATE TABLE shop.orders (id INT PRIMARY KEY, amount DECIMAL(10, 2) NOT NULL, note VARCHAR(20))",
                "CREATE TABLE shop.customers (id BIGINT PRIMARY KEY, name VARCHAR(20))",
                "INSERT INTO shop.orders VALUES (1, 10.50, 'first'), (2, 20.00, NULL)",
                "INSERT INTO shop.customers VALUES (7, 'ann')",
                "CREATE DATABASE inventory", "CREATE TABLE inventory.items (id INT PRIMARY KEY, sku VARCHAR(8))",
                "INSERT INTO inventory.items VALUES (1, 'A-1')");
        onCluster(List.of(CATALOG_BUNDLE), (cluster, dir, jobs) -> {
            Path warehouse = dir.resolve("warehouse");
            String database = submit(cluster, dir, jobs, "MySQL-Paimon Database Sync: ods", args("run", "-d",
                    CDC_BUNDLE.toString(), "mysql_sync_database", "--warehouse", warehouse.toUri().toString(),
                    "--database", "ods", "--mysql_conf", "database-name=shop", "--mysql_conf", "server-id=5401",
                    "--table_conf", "bucket=1", mysqlConf()));
            String table = submit(cluster, dir, jobs, "MySQL-Paimon Table Sync: ods.items", args("run", "-d",
                    CDC_BUNDLE.toString(), "mysql_sync_table", "--warehouse", warehouse.toUri().toString(),
                    "--database", "ods", "--table", "items", "--mysql_conf", "database-name=inventory",
                    "--mysql_conf", "table-name=items", "--mysql_conf", "server-id=5501", mysqlConf()));
            awaitRows(warehouse, "ods.orders", "+I(1, 10.50, first)", "+I(2, 20.00, null)");
            awaitRows(warehouse, "ods.customers", "+I(7, ann)");
            awaitRows(warehouse, "ods.items", "+I(1, A-1)");

            MARIADB.execute("INSERT INTO shop.orders VALUES (3, 30.00, 'third')",
                    "UPDATE shop.orders SET note = 'second' WHERE id = 2", "DELETE FROM shop.orders WHERE id = 1",
                    "UPDATE shop.customers SET name = 'anne' WHERE id = 7",
                    "INSERT INTO inventory.items VALUES (2, 'B-2')");
            awaitRows(warehouse, "ods.orders", "+I(2, 20.00, second)", "+I(3, 30.00, third)");
            awaitRows(warehouse, "ods.customers", "+I(7, anne)");
            awaitRows(warehouse, "ods.items", "+I(1, A-1)", "+I(2, B-2)");

            MARIADB.execute("ALTER TABLE shop.orders ADD COLUMN status VARCHAR(8)",
                    "INSERT INTO shop.orders VALUES (4, 40.00, 'fourth', 'new')");
            awaitRows(warehouse, "ods.orders", "+I(2, 20.00, second, null)", "+I(3, 30.00, third, null)",
                    "+I(4, 40.00, fourth, new)");
            assertThat(cluster.jobState(database)).isEqualTo("RUNNING");
            assertThat(cluster.jobState(table)).isEqualTo("RUNNING");
            // Each engine registers its MBeans under names of its own (custom.metric.tags): without,
            // the second engine's registration collides with the first's and its job fails.
            assertThat(cluster.log("taskmanager.log")).contains("Starting the MARIADB connector")
                    .doesNotContain("Unable to register metrics");
        });
    }

    /**
     * {@code kafka_sync_table} from the cdc bundle as user jar: Flink's Kafka source is inside it,
     * relocated with its Kafka client, so the cluster needs no Kafka connector in lib/.
     */
    @Test
    void kafkaSyncRunsWithTheCdcBundleAsUserJar() throws Exception {
        KAFKA.createTopic("canal_orders", 1);
        String types = "\"mysqlType\":{\"id\":\"int(11)\",\"sku\":\"varchar(8)\"},\"pkNames\":[\"id\"],"
                + "\"database\":\"shop\",\"table\":\"orders\",\"isDdl\":false";
        KAFKA.send("canal_orders", "{\"data\":[{\"id\":\"1\",\"sku\":\"A-1\"},{\"id\":\"2\",\"sku\":\"B-2\"}],"
                + types + ",\"type\":\"INSERT\"}");
        onCluster(List.of(CATALOG_BUNDLE), (cluster, dir, jobs) -> {
            Path warehouse = dir.resolve("warehouse");
            String job = submit(cluster, dir, jobs, "Kafka-Paimon Table Sync: ods.orders", args("run", "-d",
                    CDC_BUNDLE.toString(), "kafka_sync_table", "--warehouse", warehouse.toUri().toString(),
                    "--database", "ods", "--table", "orders", "--table_conf", "bucket=1",
                    "--kafka_conf", "properties.bootstrap.servers=" + KAFKA.bootstrapServers(),
                    "--kafka_conf", "topic=canal_orders", "--kafka_conf", "properties.group.id=cluster",
                    "--kafka_conf", "value.format=canal-json"));
            awaitRows(warehouse, "ods.orders", "+I(1, A-1)", "+I(2, B-2)");
            KAFKA.send("canal_orders", "{\"data\":[{\"id\":\"2\",\"sku\":\"B-2\"}]," + types
                    + ",\"type\":\"DELETE\"}");
            awaitRows(warehouse, "ods.orders", "+I(1, A-1)");
            assertThat(cluster.jobState(job)).isEqualTo("RUNNING");
        });
    }

    /**
     * Both bundles in lib/: Flink's SQL client (with the cluster's configuration) creates a
     * {@code mysql} catalog and runs an INSERT from a MySQL table into a Paimon table, its source
     * loaded from lib/ on the cluster; and {@code flink run} with the cdc bundle runs a sync next to it.
     */
    @Test
    void sqlAndSyncActionsRunWithBothBundlesInLib() throws Exception {
        MARIADB.execute("CREATE DATABASE stock", "CREATE TABLE stock.items (id INT PRIMARY KEY, sku VARCHAR(8))",
                "INSERT INTO stock.items VALUES (1, 'S-1'), (2, 'S-2')");
        onCluster(List.of(CATALOG_BUNDLE, CDC_BUNDLE), (cluster, dir, jobs) -> {
            Path warehouse = dir.resolve("warehouse");
            Path script = dir.resolve("insert.sql");
            Files.writeString(script, String.join("\n",
                    "CREATE CATALOG paimon WITH ('type' = 'paimon', 'warehouse' = '" + warehouse.toUri() + "', "
                            + "'metastore' = 'hive', 'uri' = '" + METASTORE.uri() + "', 'lock.enabled' = 'true');",
                    "CREATE CATALOG mysql WITH ('type' = 'mysql', 'hostname' = '" + MARIADB.host() + "', 'port' = '"
                            + MARIADB.port() + "', 'username' = '" + MariaDbExtension.CDC_USER + "', 'password' = '"
                            + MariaDbExtension.CDC_PASSWORD + "', 'server-time-zone' = 'UTC');",
                    "CREATE DATABASE paimon.dw;",
                    "CREATE TABLE paimon.dw.items (id INT NOT NULL, sku STRING, PRIMARY KEY (id) NOT ENFORCED)"
                            + " WITH ('bucket' = '1');",
                    "INSERT INTO paimon.dw.items SELECT id, sku FROM mysql.stock.items /*+ OPTIONS('server-id' = '5601') */;",
                    ""));
            ProcessRun sql = cluster.sqlClient(dir.resolve("sql-client.txt"), List.of(RUNNER_JAR), "-f", script.toString());
            Matcher sqlJob = SQL_JOB_ID.matcher(sql.output);
            assertThat(sql.exitCode).as("sql client:\n%s", sql.output).isZero();
            assertThat(sqlJob.find()).as("the INSERT's job id in the SQL client's output:\n%s", sql.output).isTrue();
            jobs.add(sqlJob.group(1));
            String sync = submit(cluster, dir, jobs, "MySQL-Paimon Database Sync: ods", args("run", "-d",
                    CDC_BUNDLE.toString(), "mysql_sync_database", "--warehouse", warehouse.toUri().toString(),
                    "--catalog_conf", "metastore=hive", "--catalog_conf", "uri=" + METASTORE.uri(),
                    "--database", "ods", "--mysql_conf", "database-name=stock", "--mysql_conf", "server-id=5701",
                    mysqlConf()));
            // the tables' directories are where a filesystem catalog on the warehouse reads them too
            awaitRows(warehouse, "dw.items", "+I(1, S-1)", "+I(2, S-2)");
            awaitRows(warehouse, "ods.items", "+I(1, S-1)", "+I(2, S-2)");
            assertThat(registeredPaimonTables("dw")).containsExactly("items");
            assertThat(registeredPaimonTables("ods")).containsExactly("items");

            MARIADB.execute("INSERT INTO stock.items VALUES (3, 'S-3')", "DELETE FROM stock.items WHERE id = 1");
            awaitRows(warehouse, "dw.items", "+I(2, S-2)", "+I(3, S-3)");
            awaitRows(warehouse, "ods.items", "+I(2, S-2)", "+I(3, S-3)");
            assertThat(cluster.jobState(sqlJob.group(1))).isEqualTo("RUNNING");
            assertThat(cluster.jobState(sync)).isEqualTo("RUNNING");
        });
    }

    /**
     * Starts a cluster with Flink's jars and {@code bundles} in lib/, runs {@code steps}, cancels the
     * jobs and stops the cluster. Its directory (configuration, logs, warehouse) is under target/ and
     * stays there when the test fails; a failure carries the jobs' exceptions and the logs' tails.
     */
    private static void onCluster(List<Path> bundles, OnCluster steps) throws Exception {
        for (Path bundle : bundles) {
            assertThat(bundle).as("bundle jar (built by `mvn package`)").isRegularFile();
        }
        Path dir = Files.createTempDirectory(Path.of(System.getProperty("java.io.tmpdir")), "cdc-cluster-");
        List<Path> lib = new ArrayList<>(flinkJars());
        lib.addAll(bundles);
        boolean passed = false;
        try (StandaloneFlinkCluster cluster = StandaloneFlinkCluster.start(dir, lib,
                System.getProperty("flink.jdk17.opens", ""), Map.of("execution.checkpointing.interval", "1s"))) {
            List<String> jobs = new ArrayList<>();
            try {
                steps.run(cluster, dir, jobs);
            } catch (Throwable e) {
                throw cluster.failure(e, jobs);
            }
            for (String job : jobs) {
                cluster.cancel(job);
            }
            for (String job : jobs) {
                await().atMost(WAIT).pollInterval(Duration.ofMillis(200)).until(() -> cluster.jobState(job),
                        "CANCELED"::equals);
            }
            passed = true;
        } finally {
            if (passed) {
                deleteRecursively(dir);
            }
        }
    }

    /** Runs {@code flink run -d ...}: it must succeed, print the job id and our submission line; the job id. */
    private static String submit(StandaloneFlinkCluster cluster, Path dir, List<String> jobs, String jobName,
            String... args) throws Exception {
        ProcessRun run = cluster.flink(Files.createTempFile(dir, "flink-run-", ".txt"), args);
        assertThat(run.exitCode).as("flink %s:\n%s", String.join(" ", args), run.output).isZero();
        Matcher id = CLI_JOB_ID.matcher(run.output);
        assertThat(id.find()).as("the job id in flink run's output:\n%s", run.output).isTrue();
        String job = id.group(1);
        jobs.add(job);
        assertThat(run.output).contains("Submitted " + jobName + " as job " + job);
        assertThat(cluster.jobState(job)).isIn("CREATED", "INITIALIZING", "RUNNING");
        // The interval of the cluster's config.yaml, not the action's default for when none is configured.
        assertThat(cluster.get("/jobs/" + job + "/checkpoints/config")).as("checkpoint configuration of %s", jobName)
                .containsPattern("\"interval\"\\s*:\\s*1000\\b");
        return job;
    }

    /** Command-line arguments from strings and arrays of strings, in order. */
    private static String[] args(Object... parts) {
        List<String> all = new ArrayList<>();
        for (Object part : parts) {
            if (part instanceof String[] array) {
                all.addAll(List.of(array));
            } else {
                all.add((String) part);
            }
        }
        return all.toArray(new String[0]);
    }

    /** The MariaDB server's connection arguments of an action (several --mysql_conf k=v). */
    private static String[] mysqlConf() {
        return new String[] {"--mysql_conf", "hostname=" + MARIADB.host(), "--mysql_conf", "port=" + MARIADB.port(),
                "--mysql_conf", "username=" + MariaDbExtension.CDC_USER,
                "--mysql_conf", "password=" + MariaDbExtension.CDC_PASSWORD, "--mysql_conf", "server-time-zone=UTC"};
    }

    /** Flink's jars as a distribution's lib/ has them (the runner's compile classpath, without streamhouse). */
    private static List<Path> flinkJars() throws IOException {
        String classpath = Files.readString(ROOT.resolve("paimon-sql-runner/target/classpath-flink.txt")).trim();
        List<Path> jars = Stream.of(classpath.split(":")).map(Path::of).collect(Collectors.toList());
        assertThat(jars).as("Flink's jars only").noneMatch(p -> p.getFileName().toString().startsWith("paimon-"))
                .noneMatch(p -> p.getFileName().toString().startsWith("debezium-"));
        return jars;
    }

    /** The Paimon tables of {@code database} in the test metastore. */
    private static List<String> registeredPaimonTables(String database) throws Exception {
        org.apache.hadoop.conf.Configuration conf = org.apache.hadoop.hive.metastore.conf.MetastoreConf.newMetastoreConf();
        org.apache.hadoop.hive.metastore.conf.MetastoreConf.setVar(conf,
                org.apache.hadoop.hive.metastore.conf.MetastoreConf.ConfVars.THRIFT_URIS, METASTORE.uri());
        try (var client = new org.apache.hadoop.hive.metastore.HiveMetaStoreClient(conf)) {
            List<String> paimon = new ArrayList<>();
            for (String table : client.getAllTables(database)) {
                if ("PAIMON".equals(client.getTable(database, table).getParameters().get("table_type"))) {
                    paimon.add(table);
                }
            }
            return paimon;
        }
    }

    private static void awaitRows(Path warehouse, String table, String... expected) {
        new SyncedWarehouse(warehouse).awaitRows(table, expected);
    }

    private static void deleteRecursively(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }
}
