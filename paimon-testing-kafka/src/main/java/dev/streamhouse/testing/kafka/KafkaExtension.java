package dev.streamhouse.testing.kafka;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A private Apache Kafka broker per test class, in KRaft mode (one process that is both broker and
 * controller), started from the Kafka server jars of this module's build in a JVM of its own, on free
 * loopback ports, with its log directory in a fresh temporary directory. Register it as a static
 * {@code @RegisterExtension} field; it starts before the class's first test and stops (and deletes its
 * directory) after the last one. Topics are not created automatically: tests create them
 * ({@link #createTopic}), so that a missing topic is an error as on most production clusters.
 *
 * <p>{@link #stopBroker()} and {@link #startBroker()} take the broker away and bring it back on the
 * same port with the same data, for tests of an unreachable broker.
 */
public final class KafkaExtension implements BeforeAllCallback, AfterAllCallback {
    private static final Duration START_TIMEOUT = Duration.ofMinutes(2);

    private Path baseDir;
    private Path config;
    private Path log;
    private Process broker;
    private KafkaProducer<String, String> producer;
    private int port;

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        start();
    }

    @Override
    public void afterAll(ExtensionContext context) throws Exception {
        stop();
    }

    /** Formats a new log directory and starts the broker on it. */
    public void start() throws Exception {
        baseDir = Files.createTempDirectory(Paths.get(System.getProperty("java.io.tmpdir")), "kafka-");
        port = freeLoopbackPort();
        int controllerPort = freeLoopbackPort();
        config = baseDir.resolve("server.properties");
        log = baseDir.resolve("broker.log");
        Files.writeString(config, String.join("\n",
                "process.roles=broker,controller",
                "node.id=1",
                "controller.quorum.voters=1@127.0.0.1:" + controllerPort,
                "listeners=PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort,
                "advertised.listeners=PLAINTEXT://127.0.0.1:" + port,
                "controller.listener.names=CONTROLLER",
                "inter.broker.listener.name=PLAINTEXT",
                "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
                "log.dirs=" + baseDir.resolve("data"),
                "num.partitions=1",
                "auto.create.topics.enable=false",
                "offsets.topic.replication.factor=1",
                "offsets.topic.num.partitions=1",
                "transaction.state.log.replication.factor=1",
                "transaction.state.log.min.isr=1",
                "share.coordinator.state.topic.replication.factor=1",
                "share.coordinator.state.topic.min.isr=1",
                "group.initial.rebalance.delay.ms=0",
                ""), StandardCharsets.UTF_8);
        Process format = javaProcess(baseDir.resolve("format.log"), "kafka.tools.StorageTool",
                "format", "-t", Uuid.randomUuid().toString(), "-c", config.toString());
        if (!format.waitFor(START_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS) || format.exitValue() != 0) {
            format.destroyForcibly();
            throw new IllegalStateException("Cannot format the Kafka log directory in " + baseDir + ":\n"
                    + tail(baseDir.resolve("format.log")));
        }
        startBroker();
    }

    /** Starts the broker on the formatted directory (again, after {@link #stopBroker()}). */
    public void startBroker() throws Exception {
        broker = javaProcess(log, "kafka.Kafka", config.toString());
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        Exception last = null;
        while (System.nanoTime() < deadline) {
            if (!broker.isAlive()) {
                throw new IllegalStateException("The Kafka broker exited with " + broker.exitValue()
                        + " before it accepted connections on port " + port + ":\n" + tail(log));
            }
            try (Admin admin = admin(Duration.ofSeconds(2))) {
                admin.describeCluster().nodes().get(5, TimeUnit.SECONDS);
                return;
            } catch (ExecutionException | java.util.concurrent.TimeoutException e) {
                last = e;
                Thread.sleep(200);
            }
        }
        broker.destroyForcibly();
        throw new IllegalStateException("The Kafka broker did not accept connections on port " + port + " within "
                + START_TIMEOUT + " (" + last + "):\n" + tail(log));
    }

    /** Stops the broker process (SIGTERM, a controlled shutdown), keeping its data. */
    public void stopBroker() throws Exception {
        if (broker != null && broker.isAlive()) {
            broker.destroy();
            if (!broker.waitFor(60, TimeUnit.SECONDS)) {
                broker.destroyForcibly().waitFor();
            }
        }
        broker = null;
    }

    /** Stops the broker and deletes its directory. */
    public void stop() throws Exception {
        try {
            synchronized (this) {
                if (producer != null) {
                    producer.close(Duration.ofSeconds(5));
                    producer = null;
                }
            }
            stopBroker();
        } finally {
            if (baseDir != null) {
                deleteRecursively(baseDir);
                baseDir = null;
            }
        }
    }

    /** {@code 127.0.0.1:<port>}, for {@code properties.bootstrap.servers}. */
    public String bootstrapServers() {
        return "127.0.0.1:" + port;
    }

    /** Creates a topic with {@code partitions} partitions (replication factor 1). */
    public void createTopic(String topic, int partitions) {
        try (Admin admin = admin(Duration.ofSeconds(30))) {
            admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("Cannot create topic " + topic + ": " + e.getMessage(), e);
        }
    }

    /** Sends records (key, value; either may be null) to one partition of a topic and waits for them. */
    public synchronized void send(String topic, int partition, List<Map.Entry<String, String>> records) {
        if (producer == null) {
            Properties props = new Properties();
            props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
            props.put(ProducerConfig.ACKS_CONFIG, "all");
            props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
            producer = new KafkaProducer<>(props, new StringSerializer(), new StringSerializer());
        }
        for (Map.Entry<String, String> r : records) {
            producer.send(new ProducerRecord<>(topic, partition, r.getKey(), r.getValue()));
        }
        producer.flush();
    }

    /** Sends values without keys to partition 0 of a topic. */
    public void send(String topic, String... values) {
        List<Map.Entry<String, String>> records = new ArrayList<>();
        for (String value : values) {
            records.add(new java.util.AbstractMap.SimpleEntry<>(null, value));
        }
        send(topic, 0, records);
    }

    /** Every record of a topic, partition by partition, from the first offset to the current end. */
    public List<ConsumerRecord<String, String>> readAll(String topic) {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        try (KafkaConsumer<String, String> consumer =
                new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
                    .map(p -> new TopicPartition(topic, p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, Duration.ofSeconds(30));
            List<ConsumerRecord<String, String>> records = new ArrayList<>();
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (partitions.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("Cannot read " + topic + " to its end " + end);
                }
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            }
            return records;
        }
    }

    private Admin admin(Duration timeout) {
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
        return Admin.create(props);
    }

    /** A JVM running {@code mainClass} of the Kafka server jars, which are on this test's classpath. */
    private Process javaProcess(Path output, String mainClass, String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Xmx512m");
        // the tests' JIT setting, when Maven's surefire passes one (see the root pom's surefire.jit)
        String testJvmOptions = System.getProperty("streamhouse.test.jvm.opts", "").trim();
        if (!testJvmOptions.isEmpty()) {
            command.addAll(List.of(testJvmOptions.split("\\s+")));
        }
        command.add("-Dlog4j2.configurationFile=" + writeLogConfig());
        command.add("-cp");
        command.add(brokerClasspath());
        command.add(mainClass);
        command.addAll(List.of(args));
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
    }

    /** Log4j 2 settings for the broker's JVM: warnings and errors, to the process output. */
    private Path writeLogConfig() throws IOException {
        Path file = baseDir.resolve("log4j2.properties");
        if (!Files.exists(file)) {
            Files.writeString(file, String.join("\n",
                    "appender.out.type=Console",
                    "appender.out.name=out",
                    "appender.out.layout.type=PatternLayout",
                    "appender.out.layout.pattern=%d{HH:mm:ss,SSS} %-5p %c - %m%n",
                    "rootLogger.level=WARN",
                    "rootLogger.appenderRef.out.ref=out",
                    ""), StandardCharsets.UTF_8);
        }
        return file;
    }

    /** The broker's jars, written by this module's build (its compile and provided dependencies). */
    private static String brokerClasspath() throws IOException {
        try (var in = KafkaExtension.class.getResourceAsStream("broker.classpath")) {
            if (in == null) {
                throw new IllegalStateException("broker.classpath is missing from paimon-testing-kafka's jar; "
                        + "rebuild the module with Maven");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
        }
    }

    private static int freeLoopbackPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private static String tail(Path file) {
        try {
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "(cannot read " + file + ": " + e.getMessage() + ")";
        }
    }

    private static void deleteRecursively(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
