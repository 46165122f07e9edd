package dev.streamhouse.flink.cdc.kafka;

import dev.streamhouse.flink.cdc.event.CdcEvent;
import dev.streamhouse.flink.cdc.sync.SyncPipeline;
import dev.streamhouse.flink.cdc.sync.SyncSettings;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import java.util.Map;

/**
 * A Kafka sync as one Flink job: Flink's Kafka source (offsets in Flink's checkpoints) reading CDC
 * records of one format ({@link KafkaSyncSource}), then the same pipeline as a MySQL sync
 * ({@link SyncPipeline}): tables created and evolved from what the records say, changes committed
 * exactly once. New tables in the topics are picked up while the job runs.
 */
public final class KafkaSync {
    private KafkaSync() {}

    /**
     * Adds the sync to {@code env}, after checking that the brokers answer and the topics exist.
     *
     * @throws IllegalArgumentException naming a missing, unknown or wrong {@code --kafka_conf} option
     * @throws IllegalStateException if the brokers cannot be reached or a topic is missing
     */
    public static void addTo(StreamExecutionEnvironment env, Map<String, String> kafkaConf, SyncSettings settings,
            Integer sinkParallelism) {
        KafkaSyncSource source = KafkaSyncSource.of(kafkaConf);
        source.preflight();
        DataStream<CdcEvent> events = env.fromSource(source.build(settings.timeZone(), !settings.singleTable()),
                        WatermarkStrategy.noWatermarks(), "Kafka CDC source (" + source.format() + ")")
                .uid("kafka-cdc-source");
        SyncPipeline.sinkTo(events, settings, sinkParallelism);
    }
}
