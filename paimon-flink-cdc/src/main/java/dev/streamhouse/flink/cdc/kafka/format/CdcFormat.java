package dev.streamhouse.flink.cdc.kafka.format;

import dev.streamhouse.flink.cdc.event.CdcRecord;

import java.io.IOException;
import java.util.List;

/**
 * One CDC format of Kafka records (Debezium's, Canal's, ...): the changes a record carries, as
 * {@link CdcRecord}s with their table's schema as far as the record tells it. A format instance keeps
 * caches and is used by one thread.
 */
public interface CdcFormat {

    /**
     * The changes in one record; empty for records that carry none (tombstones, transaction markers,
     * DDL statements, which the schema of the next rows reflects).
     *
     * @param key the record's key, null when it has none
     * @param value the record's value, null for a tombstone
     * @throws IOException when the record is no JSON
     * @throws IllegalArgumentException when it is JSON but not of this format, or a value does not fit its
     *     type; the message says what is wrong
     */
    List<CdcRecord> parse(byte[] key, byte[] value) throws IOException;
}
