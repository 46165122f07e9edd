package dev.streamhouse.flink.cdc.kafka;

import dev.streamhouse.flink.cdc.event.CdcEvent;
import dev.streamhouse.flink.cdc.event.CdcEventTypeInfo;
import dev.streamhouse.flink.cdc.event.CdcRecord;
import dev.streamhouse.flink.cdc.event.KafkaOrigin;
import dev.streamhouse.flink.cdc.kafka.format.CdcFormat;
import dev.streamhouse.flink.cdc.kafka.format.CdcFormats;
import org.apache.flink.api.common.serialization.DeserializationSchema;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.runtime.execution.SuppressRestartsException;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.time.ZoneId;
import java.util.List;

/**
 * Kafka records as {@link CdcEvent}s, by the sync's {@code value.format}. A record that does not parse,
 * or (in a database sync) names no table, fails the job for good with a message naming the topic,
 * partition, offset and reason, as a restart would meet the same record again; with
 * {@code <format>.ignore-parse-errors} = {@code true} it is skipped with a warning instead. Either way
 * nothing of it reaches a table.
 */
final class KafkaCdcDeserializer implements KafkaRecordDeserializationSchema<CdcEvent> {
    private static final long serialVersionUID = 1L;
    private static final Logger LOG = LoggerFactory.getLogger(KafkaCdcDeserializer.class);

    private final String format;
    private final ZoneId serverZone;
    private final boolean ignoreParseErrors;
    private final boolean needsTableNames;
    private transient CdcFormat parser;

    KafkaCdcDeserializer(String format, ZoneId serverZone, boolean ignoreParseErrors, boolean needsTableNames) {
        this.format = CdcFormats.check(format);
        this.serverZone = serverZone;
        this.ignoreParseErrors = ignoreParseErrors;
        this.needsTableNames = needsTableNames;
    }

    @Override
    public void open(DeserializationSchema.InitializationContext context) {
        parser = CdcFormats.create(format, serverZone);
    }

    @Override
    public void deserialize(ConsumerRecord<byte[], byte[]> record, Collector<CdcEvent> out) throws IOException {
        List<CdcRecord> changes;
        try {
            changes = parser.parse(record.key(), record.value());
            if (needsTableNames) {
                for (CdcRecord change : changes) {
                    if (change.table().table().isEmpty()) {
                        throw new IllegalArgumentException("it names no table, which a database sync needs to "
                                + "tell where its rows go");
                    }
                }
            }
        } catch (IOException | IllegalArgumentException e) {
            String reason = String.valueOf(e.getMessage()).lines().findFirst().orElse("");
            String message = "Cannot read the record at topic " + record.topic() + ", partition " + record.partition()
                    + ", offset " + record.offset() + " as " + format + ": " + reason;
            if (ignoreParseErrors) {
                LOG.warn("{} (skipped: {}.ignore-parse-errors = true)", message, format);
                return;
            }
            // The message is the last cause, which is what the tools print; the parser's exception goes
            // to the log file.
            LOG.info(message, e);
            throw new SuppressRestartsException(new IllegalArgumentException(message + " (to skip such records, set "
                    + "--kafka_conf " + format + ".ignore-parse-errors=true)"));
        }
        KafkaOrigin origin = new KafkaOrigin(record.topic(), record.partition(), record.offset(), record.timestamp(),
                record.timestampType().toString());
        for (CdcRecord change : changes) {
            out.collect(change.withKafkaOrigin(origin));
        }
    }

    @Override
    public TypeInformation<CdcEvent> getProducedType() {
        return CdcEventTypeInfo.INSTANCE;
    }
}
