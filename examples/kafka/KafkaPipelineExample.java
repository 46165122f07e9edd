import static org.apache.flink.table.api.Expressions.$;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.typeutils.RowTypeInfo;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.connector.kafka.source.enumerator.initializer.OffsetsInitializer;
import org.apache.flink.connector.kafka.source.reader.deserializer.KafkaRecordDeserializationSchema;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.JsonNode;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.table.api.DataTypes;
import org.apache.flink.table.api.Schema;
import org.apache.flink.table.api.StatementSet;
import org.apache.flink.table.api.Table;
import org.apache.flink.table.api.bridge.java.StreamTableEnvironment;
import org.apache.flink.types.Row;
import org.apache.flink.util.Collector;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * The Kafka pipeline of docs/kafka.md as a DataStream and Table API program: Flink's KafkaSource reads
 * the JSON events with the record's timestamp, partition and offset, the event time and watermark come
 * from the payload, and one statement set writes the events enriched by a lookup join against
 * {@code shop.users} and the running totals per user (a Table API aggregate). It reads the topic from
 * the earliest offset up to the latest one at start, then ends. Run it with
 * {@code ./bin/kafka-example <bootstrap servers> <topic> [warehouse]}.
 */
public class KafkaPipelineExample {
    public static void main(String[] args) throws Exception {
        String servers = args[0];
        String topic = args[1];
        String warehouse = Path.of(args.length > 2 ? args[2] : "./warehouse").toAbsolutePath().toUri().toString();

        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.enableCheckpointing(1000);
        StreamTableEnvironment tables = StreamTableEnvironment.create(env);
        tables.executeSql("CREATE CATALOG lake WITH ('type' = 'paimon', 'warehouse' = '" + warehouse + "')");
        tables.executeSql("CREATE DATABASE IF NOT EXISTS lake.shop");
        tables.executeSql("CREATE TABLE IF NOT EXISTS lake.shop.users (user_id BIGINT, name STRING, tier STRING,"
                + " PRIMARY KEY (user_id) NOT ENFORCED) WITH ('bucket' = '1')");
        tables.executeSql("CREATE TABLE IF NOT EXISTS lake.shop.enriched_events (event_id STRING, user_id BIGINT,"
                + " user_name STRING, tier STRING, action STRING, amount DECIMAL(10, 2), event_time TIMESTAMP_LTZ(3),"
                + " kafka_time TIMESTAMP_LTZ(3), kafka_partition INT, kafka_offset BIGINT) WITH ('bucket' = '-1')");
        tables.executeSql("CREATE TABLE IF NOT EXISTS lake.shop.user_totals (user_id BIGINT, events BIGINT,"
                + " amount DECIMAL(20, 2), last_event_time TIMESTAMP_LTZ(3), PRIMARY KEY (user_id) NOT ENFORCED)"
                + " WITH ('bucket' = '2', 'changelog-producer' = 'lookup')");

        KafkaSource<Row> source = KafkaSource.<Row>builder()
                .setBootstrapServers(servers)
                .setTopics(topic)
                .setGroupId("enrichment-java")
                .setStartingOffsets(OffsetsInitializer.earliest())
                .setBounded(OffsetsInitializer.latest())
                .setDeserializer(new UserEvents())
                .build();
        DataStream<Row> events = env.fromSource(source,
                WatermarkStrategy.<Row>forBoundedOutOfOrderness(Duration.ofSeconds(5))
                        .withTimestampAssigner((row, ts) -> ((Instant) row.getField("event_time")).toEpochMilli()),
                "user_events");
        Table eventTable = tables.fromDataStream(events, Schema.newBuilder()
                .columnByExpression("proc_time", "PROCTIME()")
                .columnByMetadata("rowtime", DataTypes.TIMESTAMP_LTZ(3))
                .watermark("rowtime", "SOURCE_WATERMARK()")
                .build());
        tables.createTemporaryView("user_events", eventTable);

        StatementSet statements = tables.createStatementSet();
        statements.addInsertSql("INSERT INTO lake.shop.enriched_events"
                + " SELECT e.event_id, e.user_id, u.name, COALESCE(u.tier, 'unknown'), e.action,"
                + " CAST(e.amount AS DECIMAL(10, 2)), e.event_time, e.kafka_time, e.kafka_partition, e.kafka_offset"
                + " FROM user_events AS e LEFT JOIN lake.shop.users FOR SYSTEM_TIME AS OF e.proc_time AS u"
                + " ON e.user_id = u.user_id");
        statements.add(tables.from("user_events")
                .groupBy($("user_id"))
                .select($("user_id"), $("event_id").count(), $("amount").sum().cast(DataTypes.DECIMAL(20, 2)),
                        $("event_time").max())
                .insertInto("lake.shop.user_totals"));
        statements.execute().await();
        System.out.println("Events of " + topic + " are in lake.shop.enriched_events and lake.shop.user_totals");
    }

    /** A JSON event and the Kafka record's metadata as a row. */
    static final class UserEvents implements KafkaRecordDeserializationSchema<Row> {
        private static final ObjectMapper JSON = new ObjectMapper();

        @Override
        public void deserialize(ConsumerRecord<byte[], byte[]> record, Collector<Row> out) throws IOException {
            JsonNode e = JSON.readTree(record.value());
            Row row = Row.withNames();
            row.setField("event_id", e.get("event_id").asText());
            row.setField("user_id", e.get("user_id").asLong());
            row.setField("action", e.get("action").asText());
            row.setField("amount", new BigDecimal(e.get("amount").asText()));
            row.setField("event_time", Instant.ofEpochMilli(e.get("ts").asLong()));
            row.setField("kafka_time", Instant.ofEpochMilli(record.timestamp()));
            row.setField("kafka_partition", record.partition());
            row.setField("kafka_offset", record.offset());
            out.collect(row);
        }

        @Override
        public TypeInformation<Row> getProducedType() {
            return new RowTypeInfo(
                    new TypeInformation<?>[] {Types.STRING, Types.LONG, Types.STRING, Types.BIG_DEC, Types.INSTANT,
                            Types.INSTANT, Types.INT, Types.LONG},
                    new String[] {"event_id", "user_id", "action", "amount", "event_time", "kafka_time",
                            "kafka_partition", "kafka_offset"});
        }
    }
}
