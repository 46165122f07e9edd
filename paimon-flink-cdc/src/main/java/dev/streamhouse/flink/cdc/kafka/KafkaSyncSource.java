package dev.streamhouse.flink.cdc.kafka;

import dev.streamhouse.flink.cdc.RootCause;
import dev.streamhouse.flink.cdc.event.CdcEvent;
import dev.streamhouse.flink.cdc.kafka.format.CdcFormats;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.KafkaSourceBuilder;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.util.TimeUtils;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.OffsetResetStrategy;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;

/**
 * The Kafka source of a sync, from {@code --kafka_conf} with the option names of Flink's Kafka SQL
 * connector (which Apache Paimon's Kafka actions take too): {@code properties.bootstrap.servers},
 * {@code topic} (one or more, separated by {@code ;}) or {@code topic-pattern}, {@code properties.group.id},
 * {@code value.format}, {@code scan.startup.mode} ({@code group-offsets} by default, where a group
 * without committed offsets starts at the earliest unless {@code properties.auto.offset.reset} says
 * otherwise; {@code earliest-offset}, {@code latest-offset}, {@code timestamp} with
 * {@code scan.startup.timestamp-millis}, {@code specific-offsets} with {@code scan.startup.specific-offsets}
 * = {@code partition:0,offset:42;partition:1,offset:300}), {@code scan.topic-partition-discovery.interval},
 * {@code <format>.ignore-parse-errors}, and any Kafka consumer property as {@code properties.<name>}.
 * The offsets live in Flink's checkpoints; they are committed to the group on each checkpoint, for
 * monitoring only.
 */
public final class KafkaSyncSource {
    public static final String BOOTSTRAP_SERVERS = "properties.bootstrap.servers";
    public static final String TOPIC = "topic";
    public static final String TOPIC_PATTERN = "topic-pattern";
    public static final String GROUP_ID = "properties.group.id";
    public static final String VALUE_FORMAT = "value.format";
    public static final String STARTUP_MODE = "scan.startup.mode";
    public static final String STARTUP_TIMESTAMP = "scan.startup.timestamp-millis";
    public static final String STARTUP_OFFSETS = "scan.startup.specific-offsets";
    public static final String DISCOVERY_INTERVAL = "scan.topic-partition-discovery.interval";
    private static final String PROPERTIES = "properties.";
    private static final Set<String> KNOWN = Set.of(TOPIC, TOPIC_PATTERN, VALUE_FORMAT, STARTUP_MODE,
            STARTUP_TIMESTAMP, STARTUP_OFFSETS, DISCOVERY_INTERVAL);
    private static final Duration CHECK_TIMEOUT = Duration.ofSeconds(30);

    private final Map<String, String> conf;
    private final String where;
    private final String format;
    private final List<String> topics;
    private final Pattern topicPattern;

    private KafkaSyncSource(Map<String, String> conf, String where) {
        this.conf = Map.copyOf(conf);
        this.where = where;
        required(BOOTSTRAP_SERVERS);
        required(GROUP_ID);
        this.format = CdcFormats.check(required(VALUE_FORMAT));
        for (String key : conf.keySet()) {
            if (!key.startsWith(PROPERTIES) && !KNOWN.contains(key) && !key.equals(ignoreParseErrorsKey())) {
                throw new IllegalArgumentException(where + " " + key + " is not an option of a " + format
                        + " Kafka sync; they are " + KNOWN.stream().sorted().toList() + ", " + ignoreParseErrorsKey()
                        + " and properties.<Kafka consumer property>");
            }
        }
        String topic = conf.get(TOPIC);
        String pattern = conf.get(TOPIC_PATTERN);
        if ((topic == null) == (pattern == null)) {
            throw new IllegalArgumentException(where + " needs either topic=<name>[;<name>...] or "
                    + "topic-pattern=<regex>, " + (topic == null ? "not neither" : "not both"));
        }
        List<String> list = new ArrayList<>();
        if (topic != null) {
            for (String t : topic.split(";")) {
                if (!t.isBlank()) {
                    list.add(t.trim());
                }
            }
        }
        this.topics = List.copyOf(list);
        this.topicPattern = pattern == null ? null : Pattern.compile(pattern);
    }

    /**
     * @throws IllegalArgumentException naming a missing, unknown or wrong option
     */
    public static KafkaSyncSource of(Map<String, String> kafkaConf) {
        return of(kafkaConf, "--kafka_conf");
    }

    /**
     * @param where where the options come from, for messages (e.g. {@code --kafka_conf})
     * @throws IllegalArgumentException naming a missing, unknown or wrong option
     */
    public static KafkaSyncSource of(Map<String, String> kafkaConf, String where) {
        KafkaSyncSource source = new KafkaSyncSource(kafkaConf, where);
        source.startingOffsets(); // checks the startup options
        return source;
    }

    /** {@code <format>.ignore-parse-errors}, as Flink's format options name it. */
    private String ignoreParseErrorsKey() {
        return format + ".ignore-parse-errors";
    }

    public String format() {
        return format;
    }

    /** What the source reads, for messages: the topics or the pattern. */
    public String describe() {
        return (topicPattern != null ? "topics matching '" + topicPattern + "'" : "topic " + String.join(", ", topics))
                + " at " + conf.get(BOOTSTRAP_SERVERS);
    }

    private String required(String key) {
        String value = conf.get(key);
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(where + " " + key + "=... is required");
        }
        return value.trim();
    }

    /** The consumer properties: every {@code properties.*} option without its prefix. */
    private Properties consumerProperties() {
        Properties props = consumerProperties(conf);
        String discovery = conf.get(DISCOVERY_INTERVAL);
        if (discovery != null) {
            props.setProperty("partition.discovery.interval.ms", Long.toString(duration(DISCOVERY_INTERVAL, discovery)));
        }
        return props;
    }

    /** The Kafka client properties of {@code options}: every {@code properties.*} option without its prefix. */
    static Properties consumerProperties(Map<String, String> options) {
        Properties props = new Properties();
        for (Map.Entry<String, String> e : options.entrySet()) {
            if (e.getKey().startsWith(PROPERTIES)) {
                props.setProperty(e.getKey().substring(PROPERTIES.length()), e.getValue());
            }
        }
        return props;
    }

    /**
     * Checks, before the job is submitted, that the brokers answer and that every named topic exists.
     *
     * @throws IllegalStateException naming the servers or the topic
     */
    public void preflight() {
        Map<String, Object> props = new HashMap<>();
        consumerProperties().forEach((k, v) -> props.put((String) k, v));
        props.keySet().retainAll(AdminClientConfig.configNames());
        // The checks wait as long as the user lets Kafka calls take (default.api.timeout.ms), else 30 s.
        Duration timeout = props.containsKey(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG)
                ? Duration.ofMillis(Long.parseLong(props.get(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG).toString()))
                : CHECK_TIMEOUT;
        props.putIfAbsent(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
        props.putIfAbsent(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
        String servers = conf.get(BOOTSTRAP_SERVERS);
        try (Admin admin = Admin.create(props)) {
            try {
                admin.describeCluster().nodes().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            } catch (ExecutionException | TimeoutException e) {
                throw new IllegalStateException("Cannot reach Kafka at " + servers + " (" + BOOTSTRAP_SERVERS + ") within "
                        + timeout.toSeconds() + " s: " + RootCause.message(e));
            }
            if (!topics.isEmpty()) {
                try {
                    admin.describeTopics(topics).allTopicNames().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
                } catch (ExecutionException e) {
                    if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                        Set<String> existing = admin.listTopics().names().get(timeout.toMillis(),
                                TimeUnit.MILLISECONDS);
                        List<String> missing = topics.stream().filter(t -> !existing.contains(t)).toList();
                        throw new IllegalStateException("Kafka at " + servers + " has no topic "
                                + String.join(", ", missing));
                    }
                    throw new IllegalStateException("Cannot describe topic " + String.join(", ", topics) + " on Kafka at "
                            + servers + ": " + RootCause.message(e));
                } catch (TimeoutException e) {
                    throw new IllegalStateException("Kafka at " + servers + " did not describe topic "
                            + String.join(", ", topics) + " within " + timeout.toSeconds() + " s");
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while checking Kafka at " + servers, e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("Cannot list the topics of Kafka at " + servers + ": " + RootCause.message(e));
        }
    }

    /**
     * The Flink source, emitting the records' changes.
     *
     * @param serverZone the zone in which formats that write TIMESTAMP values as local text wrote them
     * @param needsTableNames whether every record must name its table (a database sync)
     */
    public KafkaSource<CdcEvent> build(ZoneId serverZone, boolean needsTableNames) {
        KafkaSourceBuilder<CdcEvent> builder = KafkaSource.<CdcEvent>builder()
                .setBootstrapServers(conf.get(BOOTSTRAP_SERVERS))
                .setGroupId(conf.get(GROUP_ID))
                .setProperties(consumerProperties())
                .setStartingOffsets(startingOffsets())
                .setDeserializer(new KafkaCdcDeserializer(format, serverZone,
                        Boolean.parseBoolean(conf.getOrDefault(ignoreParseErrorsKey(), "false")),
                        needsTableNames));
        if (topicPattern != null) {
            builder.setTopicPattern(topicPattern);
        } else {
            builder.setTopics(topics);
        }
        return builder.build();
    }

    private OffsetsInitializer startingOffsets() {
        String mode = conf.getOrDefault(STARTUP_MODE, "group-offsets").trim().toLowerCase(Locale.ROOT);
        switch (mode) {
            case "earliest-offset":
                return OffsetsInitializer.earliest();
            case "latest-offset":
                return OffsetsInitializer.latest();
            case "group-offsets": {
                String reset = conf.getOrDefault(PROPERTIES + ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
                return OffsetsInitializer.committedOffsets(resetStrategy(reset));
            }
            case "timestamp": {
                String millis = conf.get(STARTUP_TIMESTAMP);
                if (millis == null) {
                    throw new IllegalArgumentException(where + " scan.startup.mode=timestamp needs "
                            + STARTUP_TIMESTAMP + "=<epoch milliseconds>");
                }
                try {
                    return OffsetsInitializer.timestamp(Long.parseLong(millis.trim()));
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException(where + " " + STARTUP_TIMESTAMP + "=" + millis
                            + " is not a number of milliseconds");
                }
            }
            case "specific-offsets":
                return OffsetsInitializer.offsets(specificOffsets(), OffsetResetStrategy.EARLIEST);
            default:
                throw new IllegalArgumentException(where + " " + STARTUP_MODE + "=" + mode + " is none of "
                        + "earliest-offset, latest-offset, group-offsets, timestamp, specific-offsets");
        }
    }

    private OffsetResetStrategy resetStrategy(String reset) {
        switch (reset.trim().toLowerCase(Locale.ROOT)) {
            case "earliest":
                return OffsetResetStrategy.EARLIEST;
            case "latest":
                return OffsetResetStrategy.LATEST;
            case "none":
                return OffsetResetStrategy.NONE;
            default:
                throw new IllegalArgumentException(where + " properties.auto.offset.reset=" + reset
                        + " is none of earliest, latest, none");
        }
    }

    /** {@code partition:0,offset:42;partition:1,offset:300} of the one topic. */
    private Map<TopicPartition, Long> specificOffsets() {
        String spec = conf.get(STARTUP_OFFSETS);
        if (spec == null || topics.size() != 1) {
            throw new IllegalArgumentException(where + " scan.startup.mode=specific-offsets needs one topic and "
                    + STARTUP_OFFSETS + "=partition:0,offset:42;partition:1,offset:300");
        }
        Map<TopicPartition, Long> offsets = new LinkedHashMap<>();
        for (String entry : spec.split(";")) {
            if (entry.isBlank()) {
                continue;
            }
            String[] parts = entry.split(",");
            try {
                if (parts.length != 2 || !parts[0].trim().startsWith("partition:")
                        || !parts[1].trim().startsWith("offset:")) {
                    throw new NumberFormatException();
                }
                int partition = Integer.parseInt(parts[0].trim().substring("partition:".length()).trim());
                long offset = Long.parseLong(parts[1].trim().substring("offset:".length()).trim());
                offsets.put(new TopicPartition(topics.get(0), partition), offset);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(where + " " + STARTUP_OFFSETS + ": '" + entry
                        + "' is not partition:<n>,offset:<n>");
            }
        }
        return offsets;
    }

    private long duration(String key, String value) {
        try {
            return TimeUtils.parseDuration(value).toMillis();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + " " + key + "=" + value + " is not a duration (e.g. 10 s)");
        }
    }

}
