package dev.streamhouse.flink.cdc.event;

import java.io.Serializable;
import java.util.Objects;

/**
 * Where a {@link CdcRecord} was read from in Kafka: the record's topic, partition, offset, timestamp
 * (epoch milliseconds) and timestamp type ({@code CreateTime}, {@code LogAppendTime} or
 * {@code NoTimestampType}), the values of a Kafka sync's metadata columns.
 */
public record KafkaOrigin(String topic, int partition, long offset, long timestampMillis, String timestampType)
        implements Serializable {
    public KafkaOrigin {
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(timestampType, "timestampType");
    }
}
