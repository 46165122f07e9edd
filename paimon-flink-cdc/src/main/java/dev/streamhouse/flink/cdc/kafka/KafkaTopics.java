package dev.streamhouse.flink.cdc.kafka;

import dev.streamhouse.flink.cdc.RootCause;
import dev.streamhouse.flink.cdc.event.CdcRecord;
import dev.streamhouse.flink.cdc.event.CdcSchema;
import dev.streamhouse.flink.cdc.kafka.format.CdcFormat;
import dev.streamhouse.flink.cdc.kafka.format.CdcFormats;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

import java.io.IOException;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * What a Kafka cluster holds, for a catalog that shows its topics as tables: the topics (internal ones
 * left out) and the table schema a topic's records carry in a CDC format, taken from its first record
 * that has rows, as Apache Paimon's Kafka actions take a topic's schema. Every call opens its own
 * client and waits at most the given time.
 */
public final class KafkaTopics {
    private final Map<String, String> options;
    private final Duration timeout;

    /**
     * @param options the cluster's options with Flink's Kafka names ({@code properties.bootstrap.servers},
     *     {@code properties.*})
     */
    public KafkaTopics(Map<String, String> options, Duration timeout) {
        this.options = Map.copyOf(options);
        this.timeout = timeout;
    }

    private String servers() {
        return options.get(KafkaSyncSource.BOOTSTRAP_SERVERS);
    }

    /**
     * The cluster's topics, sorted.
     *
     * @throws IllegalStateException naming the servers when they cannot be reached in time
     */
    public List<String> list() {
        Map<String, Object> props = new HashMap<>();
        KafkaSyncSource.consumerProperties(options).forEach((k, v) -> props.put((String) k, v));
        props.keySet().retainAll(AdminClientConfig.configNames());
        props.putIfAbsent(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
        props.putIfAbsent(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
        try (Admin admin = Admin.create(props)) {
            List<String> topics = new ArrayList<>(admin.listTopics().names().get(timeout.toMillis(),
                    TimeUnit.MILLISECONDS));
            topics.sort(null);
            return topics;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while listing the topics of Kafka at " + servers(), e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("Cannot list the topics of Kafka at " + servers() + " within "
                    + timeout.toSeconds() + " s: " + RootCause.message(e), e);
        }
    }

    /**
     * The schema of the first record of {@code topic} (from the start of each partition) that carries a
     * row in {@code format}; empty if the topic has none, or none within the timeout.
     *
     * @throws IllegalArgumentException naming the record (partition and offset) that does not parse
     */
    public Optional<CdcSchema> firstSchema(String topic, String format, ZoneId zone) {
        CdcFormat parser = CdcFormats.create(format, zone);
        Properties props = KafkaSyncSource.consumerProperties(options);
        props.remove(ConsumerConfig.GROUP_ID_CONFIG);
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.putIfAbsent(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "100");
        props.putIfAbsent(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) timeout.toMillis());
        try (KafkaConsumer<byte[], byte[]> consumer =
                new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (PartitionInfo p : consumer.partitionsFor(topic, timeout)) {
                partitions.add(new TopicPartition(topic, p.partition()));
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions, timeout);
            long deadline = System.nanoTime() + timeout.toNanos();
            while (System.nanoTime() < deadline && !reachedEnd(consumer, ends)) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    List<CdcRecord> rows;
                    try {
                        rows = parser.parse(record.key(), record.value());
                    } catch (IOException | IllegalArgumentException e) {
                        throw new IllegalArgumentException("Cannot read the record at topic " + topic + ", partition "
                                + record.partition() + ", offset " + record.offset() + " as " + format + ": "
                                + String.valueOf(e.getMessage()).lines().findFirst().orElse(""), e);
                    }
                    if (!rows.isEmpty()) {
                        return Optional.of(rows.get(0).schema());
                    }
                }
            }
            return Optional.empty();
        } catch (org.apache.kafka.common.KafkaException e) {
            throw new IllegalStateException("Cannot read topic " + topic + " of Kafka at " + servers() + ": "
                    + RootCause.message(e), e);
        }
    }

    private static boolean reachedEnd(KafkaConsumer<?, ?> consumer, Map<TopicPartition, Long> ends) {
        for (Map.Entry<TopicPartition, Long> e : ends.entrySet()) {
            if (consumer.position(e.getKey()) < e.getValue()) {
                return false;
            }
        }
        return true;
    }
}
