package dev.streamhouse.bench;

import dev.streamhouse.testing.kafka.KafkaExtension;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.types.Row;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Workload {@code kafka-sync}: {@code kafka_sync_database} of Debezium JSON change events, ours
 * against Apache Paimon's, each by its own action classes ({@link SyncActions}) in this JVM on a local
 * MiniCluster. A private Kafka broker (started and stopped here, on a free loopback port) gets one
 * topic of {@value #PARTITIONS} partitions holding {@code --kafka-events} events of the eight tables
 * of {@link DebeziumFeed} (not timed). Then the sync starts with the same arguments for both: {@code
 * --primary_keys id} (Paimon's debezium-json takes keys from the value only, not from the record key),
 * {@code bucket} = {@value #BUCKETS}, checkpoints every {@value #CHECKPOINT_SECONDS} s, parallelism 2,
 * from the earliest offsets.
 *
 * <p>Timed: from the start of the action (parsing, building, submission) to the snapshot commit that
 * made the last table complete. The driver waits until the job's consumer group has committed the
 * topic's end offsets (the sources commit them when a checkpoint completes, so that checkpoint holds
 * every event); then counts each table's rows and sums {@code qty} and {@code amount} with Flink SQL
 * until they are what the feed expects (a run that does not get there within a minute fails); the end
 * time is the newest {@code APPEND} snapshot with records of any table, from the snapshot files both
 * implementations write in the same format. Then it cancels the job.
 */
final class KafkaSyncDatabase {
    static final int PARTITIONS = 4;
    static final int BUCKETS = 2;
    static final int CHECKPOINT_SECONDS = 2;
    private static final String TOPIC = "shop_cdc";
    private static final String GROUP = "bench-kafka-sync";
    private static final String TARGET_DATABASE = "shop";
    private static final long SYNC_TIMEOUT_MILLIS = TimeUnit.MINUTES.toMillis(15);
    private static final long VERIFY_TIMEOUT_MILLIS = TimeUnit.MINUTES.toMillis(1);

    private final String impl;
    private final Path dir;
    private final BenchParams params;
    private final Report report;

    KafkaSyncDatabase(String impl, Path workDir, BenchParams params) {
        this.impl = impl;
        this.dir = workDir.resolve("kafka-sync");
        this.params = params;
        this.report = new Report(Workload.KAFKA_SYNC.id, impl);
    }

    void run() throws Exception {
        checkClasspath();
        deleteTree(dir);
        Files.createDirectories(dir);
        KafkaExtension kafka = new KafkaExtension();
        kafka.start();
        try {
            kafka.createTopic(TOPIC, PARTITIONS);
            // Apache Paimon 1.3.1 reads Decimals only as JSON numbers, streamhouse only as Base64.
            DebeziumFeed feed = new DebeziumFeed(PARTITIONS, 20_251_205L, "paimon".equals(impl));
            Map<TopicPartition, Long> endOffsets = fill(kafka.bootstrapServers(), feed);
            sync(kafka.bootstrapServers(), feed, endOffsets);
        } finally {
            kafka.stop();
        }
    }

    /** Refuses to measure when the other implementation's actions are on the classpath, or ours are not. */
    private void checkClasspath() {
        String other = SyncActions.entryClass("ours".equals(impl) ? "paimon" : "ours");
        if (loadable(other) || !loadable(SyncActions.entryClass(impl))) {
            throw new IllegalStateException("Cannot benchmark " + impl + "'s kafka_sync_database: the classpath has "
                    + (loadable(other) ? other : "no " + SyncActions.entryClass(impl))
                    + "; check the classpath bin/bench builds");
        }
        report.info("sync actions: %s", SyncActions.entryClass(impl));
    }

    private static boolean loadable(String className) {
        try {
            Class.forName(className, false, KafkaSyncDatabase.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    /** Produces the feed's events (not timed); returns the topic's end offsets. */
    private Map<TopicPartition, Long> fill(String servers, DebeziumFeed feed) throws Exception {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, servers);
        props.put(ProducerConfig.LINGER_MS_CONFIG, 20);
        props.put(ProducerConfig.BATCH_SIZE_CONFIG, 512 * 1024);
        props.put(ProducerConfig.BUFFER_MEMORY_CONFIG, 256L * 1024 * 1024);
        props.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
        long start = System.nanoTime();
        long bytes = 0;
        AtomicReference<Exception> failure = new AtomicReference<>();
        try (KafkaProducer<String, String> producer =
                new KafkaProducer<>(props, new StringSerializer(), new StringSerializer())) {
            for (long i = 0; i < params.kafkaEvents && failure.get() == null; i++) {
                DebeziumFeed.Event e = feed.next();
                bytes += e.key.length() + e.value.length();
                producer.send(new ProducerRecord<>(TOPIC, e.partition, e.key, e.value), (metadata, error) -> {
                    if (error != null) {
                        failure.compareAndSet(null, error);
                    }
                });
            }
            producer.flush();
        }
        if (failure.get() != null) {
            throw new IllegalStateException("Cannot fill topic " + TOPIC + ": " + failure.get().getMessage(),
                    failure.get());
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        long[] counts = feed.counts();
        report.info("produced %d Debezium JSON events (%d inserts, %d updates, %d deletes; %.0f MB of keys and values,"
                        + " lz4 batches) into %d partitions in %.1f s, %.0f events/s (not timed)",
                params.kafkaEvents, counts[0], counts[1], counts[2], bytes / 1e6, PARTITIONS, seconds,
                params.kafkaEvents / seconds);
        try (Admin admin = admin(servers)) {
            Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
            for (int p = 0; p < PARTITIONS; p++) {
                latest.put(new TopicPartition(TOPIC, p), OffsetSpec.latest());
            }
            Map<TopicPartition, Long> end = new HashMap<>();
            admin.listOffsets(latest).all().get(1, TimeUnit.MINUTES)
                    .forEach((tp, info) -> end.put(tp, info.offset()));
            long total = end.values().stream().mapToLong(Long::longValue).sum();
            if (total != params.kafkaEvents) {
                throw new IllegalStateException("Cannot benchmark: topic " + TOPIC + " holds " + total
                        + " records, " + params.kafkaEvents + " were sent");
            }
            return end;
        }
    }

    private void sync(String servers, DebeziumFeed feed, Map<TopicPartition, Long> endOffsets) throws Exception {
        String warehouse = dir.resolve("warehouse").toUri().toString();
        List<String> args = List.of(
                "--warehouse", warehouse,
                "--database", TARGET_DATABASE,
                "--primary_keys", "id",
                "--kafka_conf", "properties.bootstrap.servers=" + servers,
                "--kafka_conf", "topic=" + TOPIC,
                "--kafka_conf", "value.format=debezium-json",
                "--kafka_conf", "properties.group.id=" + GROUP,
                "--kafka_conf", "scan.startup.mode=earliest-offset",
                "--table_conf", "bucket=" + BUCKETS);
        report.info("kafka_sync_database %s", String.join(" ", args));
        long startMillis = System.currentTimeMillis();
        JobClient job = SyncActions.start(impl, "kafka_sync_database", args, flinkConfiguration());
        report.info("job %s submitted %.2f s after the action started", job.getJobID(),
                (System.currentTimeMillis() - startMillis) / 1e3);
        try (Admin admin = admin(servers)) {
            long caughtUpMillis = awaitCommittedOffsets(admin, job, endOffsets, startMillis);
            report.info("the group committed the end offsets %.2f s after the start (as seen by polling)",
                    (caughtUpMillis - startMillis) / 1e3);
            verify(feed, job);
            long[] commits = dataCommits();
            double seconds = (commits[1] - startMillis) / 1e3;
            report.info("first snapshot with records %.2f s after the start, last %.2f s; %d snapshots",
                    (commits[0] - startMillis) / 1e3, seconds, commits[2]);
            report.info("%d events in %.2f s from the action's start to the last table's complete commit",
                    params.kafkaEvents, seconds);
            report.result("events-per-s", params.kafkaEvents / seconds, "events/s");
        } finally {
            cancel(job);
        }
    }

    /** Cancels the job unless it has ended, and waits for it; a failure of the job is the caller's to report. */
    private static void cancel(JobClient job) {
        try {
            if (!job.getJobExecutionResult().isDone()) {
                job.cancel().get(1, TimeUnit.MINUTES);
            }
            job.getJobExecutionResult().get(1, TimeUnit.MINUTES);
        } catch (Exception endedOrCancelled) {
            // Cancelled as asked, or ended before (its local cluster is gone with it).
        }
    }

    /** The same for both: a local MiniCluster at parallelism 2, checkpoints into a directory, no restarts. */
    private Configuration flinkConfiguration() {
        Configuration conf = new Configuration();
        conf.setString("parallelism.default", Integer.toString(SqlSession.PARALLELISM));
        conf.setString("rest.bind-port", "0");
        conf.setString("restart-strategy.type", "none");
        conf.setString("execution.checkpointing.interval", CHECKPOINT_SECONDS + " s");
        conf.setString("state.backend.type", "hashmap");
        conf.setString("execution.checkpointing.dir", dir.resolve("checkpoints").toUri().toString());
        return conf;
    }

    /** Waits until the group's committed offsets reach the end offsets; returns when it saw them. */
    private long awaitCommittedOffsets(Admin admin, JobClient job, Map<TopicPartition, Long> end, long startMillis)
            throws Exception {
        Map<TopicPartition, Long> committed = Map.of();
        while (System.currentTimeMillis() - startMillis < SYNC_TIMEOUT_MILLIS) {
            failIfEnded(job);
            Map<TopicPartition, OffsetAndMetadata> offsets = admin.listConsumerGroupOffsets(GROUP)
                    .partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS);
            committed = offsets.entrySet().stream().filter(e -> e.getValue() != null)
                    .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().offset()));
            Map<TopicPartition, Long> seen = committed;
            if (end.entrySet().stream().allMatch(e -> seen.getOrDefault(e.getKey(), -1L) >= e.getValue())) {
                return System.currentTimeMillis();
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("Cannot measure " + impl + "'s kafka_sync_database: it did not consume "
                + TOPIC + " within " + SYNC_TIMEOUT_MILLIS / 1000 + " s; committed offsets " + committed + ", end "
                + end);
    }

    /** Throws the job's failure (or says it ended) once it has ended: it should run until cancelled. */
    private static void failIfEnded(JobClient job) throws Exception {
        java.util.concurrent.CompletableFuture<?> result = job.getJobExecutionResult();
        if (result.isDone()) {
            result.get();
            throw new IllegalStateException("The sync job ended before it had synced the topic");
        }
    }

    /**
     * Counts every table's rows and sums {@code qty} and {@code amount} until they are what the feed
     * expects: the tables' commits of the checkpoint whose offsets were committed may come a moment
     * after the offsets.
     */
    private void verify(DebeziumFeed feed, JobClient job) throws Exception {
        SqlSession sql = new FlinkWorkloads(impl, dir.resolve("warehouse").toUri().toString(), params)
                .openBatch(report);
        String query = DebeziumFeed.TABLES.stream()
                .map(t -> "SELECT '" + t + "', COUNT(*), SUM(qty), CAST(SUM(amount) * 100 AS BIGINT) FROM bench."
                        + TARGET_DATABASE + ".`" + t + "`")
                .collect(Collectors.joining(" UNION ALL "));
        long deadline = System.currentTimeMillis() + VERIFY_TIMEOUT_MILLIS;
        String mismatch;
        do {
            failIfEnded(job);
            mismatch = mismatch(feed, sql, query);
            if (mismatch == null) {
                long rows = DebeziumFeed.TABLES.stream().mapToLong(feed::expectedRows).sum();
                report.info("verified: the %d tables hold %d rows in all; each table's count, SUM(qty) and SUM(amount)"
                        + " as expected",
                        DebeziumFeed.TABLES.size(), rows);
                return;
            }
            Thread.sleep(1_000);
        } while (System.currentTimeMillis() < deadline);
        throw new IllegalStateException("Wrong result of " + impl + "'s kafka_sync_database after it consumed every "
                + "event: " + mismatch);
    }

    /** What differs from the expected tables, or null when nothing does. */
    private static String mismatch(DebeziumFeed feed, SqlSession sql, String query) {
        List<Row> rows;
        try {
            rows = sql.query(query);
        } catch (Exception e) {
            return "cannot count the tables (" + FlinkWorkloads.rootCause(e) + ")";
        }
        List<String> wrong = new ArrayList<>();
        for (Row row : rows) {
            String table = String.valueOf(row.getField(0));
            long count = ((Number) row.getField(1)).longValue();
            long qtySum = row.getField(2) == null ? 0 : ((Number) row.getField(2)).longValue();
            long cents = row.getField(3) == null ? 0 : ((Number) row.getField(3)).longValue();
            if (count != feed.expectedRows(table) || qtySum != feed.expectedQtySum(table)
                    || cents != feed.expectedAmountCentsSum(table)) {
                wrong.add(String.format(Locale.ROOT, "%s has %d rows, SUM(qty) %d, SUM(amount) %.2f; expected %d, %d,"
                        + " %.2f", table, count, qtySum, cents / 100.0, feed.expectedRows(table),
                        feed.expectedQtySum(table), feed.expectedAmountCentsSum(table) / 100.0));
            }
        }
        return wrong.isEmpty() ? null : String.join("; ", wrong);
    }

    private static final Pattern COMMIT_KIND = Pattern.compile("\"commitKind\"\\s*:\\s*\"(\\w+)\"");
    private static final Pattern TIME_MILLIS = Pattern.compile("\"timeMillis\"\\s*:\\s*(\\d+)");
    private static final Pattern DELTA_RECORDS = Pattern.compile("\"deltaRecordCount\"\\s*:\\s*(-?\\d+)");

    /**
     * From the tables' snapshot files: the commit time of the first and of the last snapshot that added
     * records (commit kind {@code APPEND}, a positive {@code deltaRecordCount}) in any table, and the
     * number of snapshots of all tables.
     */
    private long[] dataCommits() throws IOException {
        long first = Long.MAX_VALUE;
        long last = 0;
        long snapshots = 0;
        for (String table : DebeziumFeed.TABLES) {
            Path snapshotDir = dir.resolve("warehouse").resolve(TARGET_DATABASE + ".db").resolve(table)
                    .resolve("snapshot");
            List<Path> files;
            try (Stream<Path> list = Files.list(snapshotDir)) {
                files = list.filter(p -> p.getFileName().toString().startsWith("snapshot-"))
                        .collect(Collectors.toList());
            }
            for (Path file : files) {
                String json = Files.readString(file);
                snapshots++;
                Matcher kind = COMMIT_KIND.matcher(json);
                Matcher time = TIME_MILLIS.matcher(json);
                Matcher delta = DELTA_RECORDS.matcher(json);
                if (kind.find() && kind.group(1).equals("APPEND") && time.find()
                        && (!delta.find() || Long.parseLong(delta.group(1)) > 0)) {
                    long millis = Long.parseLong(time.group(1));
                    first = Math.min(first, millis);
                    last = Math.max(last, millis);
                }
            }
        }
        if (last == 0) {
            throw new IllegalStateException("Cannot time " + impl + "'s sync: no snapshot that added records under "
                    + dir.resolve("warehouse"));
        }
        return new long[] {first, last, snapshots};
    }

    private static Admin admin(String servers) {
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, servers);
        return Admin.create(props);
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).collect(Collectors.toList())) {
                Files.deleteIfExists(p);
            }
        }
    }
}
