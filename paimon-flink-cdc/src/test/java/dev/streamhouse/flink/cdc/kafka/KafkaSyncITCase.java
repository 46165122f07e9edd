package dev.streamhouse.flink.cdc.kafka;

import dev.streamhouse.flink.cdc.testing.SyncedWarehouse;
import dev.streamhouse.storage.table.Table;
import dev.streamhouse.testing.kafka.KafkaExtension;
import org.apache.flink.api.common.JobStatus;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static dev.streamhouse.flink.cdc.kafka.DebeziumEvents.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * {@code kafka_sync_table} and {@code kafka_sync_database} end to end against a real Kafka broker:
 * Debezium JSON with and without schema (keys from the record key), Canal JSON (keys from
 * {@code pkNames}, types from {@code mysqlType}), inserts, updates and deletes, an added column and a
 * widened type while the job runs, a new table during a database sync, startup modes, and the errors a
 * user meets: a malformed record, a missing topic, an unreachable broker.
 */
class KafkaSyncITCase {
    @RegisterExtension
    static final KafkaExtension KAFKA = new KafkaExtension();

    @RegisterExtension
    static final MiniClusterExtension FLINK = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(4).build());

    @TempDir
    Path dir;

    private SyncedWarehouse warehouse;

    @BeforeEach
    void openWarehouse() {
        warehouse = new SyncedWarehouse(dir);
    }

    @AfterEach
    void cancelJobs() throws Exception {
        warehouse.cancelJobs();
    }

    private String[] kafka(String topic, String format) {
        return new String[] {"--warehouse", warehouse.uri(),
                "--kafka_conf", "properties.bootstrap.servers=" + KAFKA.bootstrapServers(),
                "--kafka_conf", "topic=" + topic, "--kafka_conf", "properties.group.id=sync-" + topic,
                "--kafka_conf", "value.format=" + format,
                "-D", "execution.checkpointing.interval=300ms", "-D", "parallelism.default=2"};
    }

    private JobClient start(String action, String[]... argGroups) throws Exception {
        List<String> args = new ArrayList<>();
        for (String[] group : argGroups) {
            args.addAll(List.of(group));
        }
        return warehouse.start(action, args);
    }

    private Table table(String name) {
        return warehouse.table(name);
    }

    private void awaitRows(String table, String... expected) {
        warehouse.awaitRows(table, expected);
    }

    private static void send(String topic, int partition, DebeziumEvents table, Map<String, String> keyRow,
            String value) {
        KAFKA.send(topic, partition, List.of(new java.util.AbstractMap.SimpleEntry<>(table.key(keyRow), value)));
    }

    /** Kafka Connect's Decimal: the unscaled value's big-endian bytes, in Base64, as a JSON string. */
    private static String decimal(String value) {
        return "\"" + Base64.getEncoder().encodeToString(new BigDecimal(value).unscaledValue().toByteArray()) + "\"";
    }

    @Test
    void debeziumJsonDatabaseSyncFollowsChangesSchemaEvolutionAndNewTables() throws Exception {
        KAFKA.createTopic("dbz", 2);
        DebeziumEvents orders = new DebeziumEvents("shop", "orders")
                .column("id", "\"type\":\"int32\",\"optional\":false")
                .column("amount", "\"type\":\"bytes\",\"optional\":false,\"name\":\"org.apache.kafka.connect.data."
                        + "Decimal\",\"version\":1,\"parameters\":{\"scale\":\"2\",\"connect.decimal.precision\":\"10\"}")
                .column("note", "\"type\":\"string\",\"optional\":true")
                .column("created", "\"type\":\"int64\",\"optional\":true,\"name\":\"io.debezium.time.MicroTimestamp\"")
                .column("qty", "\"type\":\"int32\",\"optional\":true")
                .key("id");
        DebeziumEvents customers = new DebeziumEvents("shop", "customers")
                .column("id", "\"type\":\"int64\",\"optional\":false")
                .column("name", "\"type\":\"string\",\"optional\":true")
                .key("id");
        Map<String, String> o1 = row("id", "1", "amount", decimal("10.50"), "note", "\"a\"", "created",
                "1700000000123456", "qty", "1");
        Map<String, String> o2 = row("id", "2", "amount", decimal("20.00"), "note", "null", "created", "null",
                "qty", "null");
        send("dbz", 0, orders, o1, orders.read(o1));
        send("dbz", 1, orders, o2, orders.read(o2));
        Map<String, String> c7 = row("id", "7", "name", "\"ann\"");
        send("dbz", 0, customers, c7, customers.insert(c7));
        KAFKA.send("dbz", 1, List.of(new java.util.AbstractMap.SimpleEntry<>(orders.key(o1), null))); // a tombstone

        start("kafka_sync_database", kafka("dbz", "debezium-json"),
                new String[] {"--database", "ods", "--table_prefix", "k_", "--table_conf", "bucket=2"});
        awaitRows("ods.k_orders", "+I(1, 10.50, a, 2023-11-14T22:13:20.123456, 1)", "+I(2, 20.00, null, null, null)");
        awaitRows("ods.k_customers", "+I(7, ann)");
        Table ordersTable = table("ods.k_orders");
        assertThat(ordersTable.primaryKeys()).containsExactly("id");
        assertThat(ordersTable.rowType().toString()).contains("`id` INT NOT NULL", "`amount` DECIMAL(10, 2) NOT NULL",
                "`note` STRING", "`created` TIMESTAMP(6)", "`qty` INT");

        Map<String, String> o2b = row("id", "2", "amount", decimal("20.00"), "note", "\"b\"", "created", "null",
                "qty", "null");
        send("dbz", 1, orders, o2, orders.update(o2, o2b));
        send("dbz", 0, orders, o1, orders.delete(o1));
        awaitRows("ods.k_orders", "+I(2, 20.00, b, null, null)");

        // An added column and a widened type (INT to BIGINT), then a new table.
        DebeziumEvents orders2 = new DebeziumEvents("shop", "orders")
                .column("id", "\"type\":\"int32\",\"optional\":false")
                .column("amount", "\"type\":\"bytes\",\"optional\":false,\"name\":\"org.apache.kafka.connect.data."
                        + "Decimal\",\"version\":1,\"parameters\":{\"scale\":\"2\",\"connect.decimal.precision\":\"10\"}")
                .column("note", "\"type\":\"string\",\"optional\":true")
                .column("created", "\"type\":\"int64\",\"optional\":true,\"name\":\"io.debezium.time.MicroTimestamp\"")
                .column("qty", "\"type\":\"int64\",\"optional\":true")
                .column("status", "\"type\":\"string\",\"optional\":true")
                .key("id");
        Map<String, String> o3 = row("id", "3", "amount", decimal("30.00"), "note", "null", "created", "null",
                "qty", "5000000000", "status", "\"new\"");
        send("dbz", 0, orders2, o3, orders2.insert(o3));
        DebeziumEvents returns = new DebeziumEvents("shop", "returns")
                .column("id", "\"type\":\"int32\",\"optional\":false")
                .column("order_id", "\"type\":\"int64\",\"optional\":true")
                .key("id");
        Map<String, String> r1 = row("id", "1", "order_id", "5000000000");
        send("dbz", 1, returns, r1, returns.insert(r1));
        awaitRows("ods.k_orders", "+I(2, 20.00, b, null, null, null)", "+I(3, 30.00, null, null, 5000000000, new)");
        awaitRows("ods.k_returns", "+I(1, 5000000000)");
        assertThat(table("ods.k_orders").rowType().toString()).contains("`qty` BIGINT", "`status` STRING");
    }

    @Test
    void debeziumJsonWithoutSchemaSyncsStringsKeyedByTheRecordKey() throws Exception {
        KAFKA.createTopic("plain", 1);
        DebeziumEvents items = new DebeziumEvents("inv", "items").withoutSchema()
                .column("sku", "\"type\":\"string\"").column("qty", "\"type\":\"int32\"").key("sku");
        Map<String, String> a = row("sku", "\"a-1\"", "qty", "3");
        Map<String, String> b = row("sku", "\"b-2\"", "qty", "null");
        send("plain", 0, items, a, items.insert(a));
        send("plain", 0, items, b, items.insert(b));
        Map<String, String> a2 = row("sku", "\"a-1\"", "qty", "4");
        send("plain", 0, items, a, items.update(a, a2));

        start("kafka_sync_table", kafka("plain", "debezium-json"), new String[] {"--database", "ods", "--table",
                "items", "--table_conf", "bucket=1"});
        awaitRows("ods.items", "+I(a-1, 4)", "+I(b-2, null)");
        assertThat(table("ods.items").primaryKeys()).containsExactly("sku");
        assertThat(table("ods.items").rowType().toString()).contains("`sku` STRING NOT NULL", "`qty` STRING");
    }

    @Test
    void canalJsonTableSyncReadsTypesKeysUpdatesAndDeletes() throws Exception {
        KAFKA.createTopic("canal", 1);
        String types = "\"mysqlType\":{\"id\":\"int(11)\",\"price\":\"decimal(8,2)\",\"name\":\"varchar(20)\","
                + "\"sold\":\"datetime(3)\",\"flag\":\"tinyint(1)\",\"big\":\"bigint(20) unsigned\"},"
                + "\"pkNames\":[\"id\"],\"database\":\"shop\",\"table\":\"products\",\"isDdl\":false,\"es\":1700000000000";
        KAFKA.send("canal",
                "{\"data\":[{\"id\":\"1\",\"price\":\"9.99\",\"name\":\"pen\",\"sold\":\"2024-01-02 10:15:30.500\","
                        + "\"flag\":\"1\",\"big\":\"18446744073709551615\"},{\"id\":\"2\",\"price\":\"1.00\",\"name\":null,"
                        + "\"sold\":null,\"flag\":\"0\",\"big\":\"0\"}]," + types + ",\"type\":\"INSERT\"}",
                "{\"data\":[{\"id\":\"1\",\"price\":\"8.99\",\"name\":\"pen\",\"sold\":\"2024-01-02 10:15:30.500\","
                        + "\"flag\":\"1\",\"big\":\"18446744073709551615\"}],\"old\":[{\"price\":\"9.99\"}]," + types
                        + ",\"type\":\"UPDATE\"}",
                "{\"data\":null,\"database\":\"shop\",\"table\":\"products\",\"isDdl\":true,\"type\":\"ALTER\","
                        + "\"sql\":\"ALTER TABLE products ADD x INT\"}",
                "{\"data\":[{\"id\":\"2\",\"price\":\"1.00\",\"name\":null,\"sold\":null,\"flag\":\"0\",\"big\":\"0\"}],"
                        + types + ",\"type\":\"DELETE\"}");

        start("kafka_sync_table", kafka("canal", "canal-json"), new String[] {"--database", "ods", "--table",
                "products", "--table_conf", "bucket=1", "--kafka_conf", "scan.startup.mode=earliest-offset",
                "--computed_column", "sold_year=year(sold)", "--computed_column", "label=upper(name)"});
        awaitRows("ods.products", "+I(1, 8.99, pen, 2024-01-02T10:15:30.500, true, 18446744073709551615, 2024, PEN)");
        assertThat(table("ods.products").rowType().toString()).contains("`id` INT NOT NULL", "`price` DECIMAL(8, 2)",
                "`name` VARCHAR(20)", "`sold` TIMESTAMP(3)", "`flag` BOOLEAN", "`big` DECIMAL(20, 0)", "`sold_year` INT",
                "`label` STRING");
    }

    @Test
    void maxwellDatabaseSyncAndAPlainJsonTableSyncKeyedByPrimaryKeysArgument() throws Exception {
        KAFKA.createTopic("maxwell", 1);
        KAFKA.send("maxwell",
                "{\"database\":\"shop\",\"table\":\"items\",\"type\":\"insert\",\"ts\":1700000000,"
                        + "\"data\":{\"id\":1,\"name\":\"pen\"},\"primary_key_columns\":[\"id\"]}",
                "{\"database\":\"shop\",\"table\":\"items\",\"type\":\"insert\",\"ts\":1700000001,"
                        + "\"data\":{\"id\":2,\"name\":\"ink\"},\"primary_key_columns\":[\"id\"]}",
                "{\"database\":\"shop\",\"table\":\"items\",\"type\":\"update\",\"ts\":1700000002,"
                        + "\"data\":{\"id\":2,\"name\":\"ink2\"},\"old\":{\"name\":\"ink\"},"
                        + "\"primary_key_columns\":[\"id\"]}",
                "{\"database\":\"shop\",\"table\":\"items\",\"type\":\"delete\",\"ts\":1700000003,"
                        + "\"data\":{\"id\":1,\"name\":\"pen\"},\"primary_key_columns\":[\"id\"]}");
        start("kafka_sync_database", kafka("maxwell", "maxwell-json"), new String[] {"--database", "ods",
                "--table_conf", "bucket=1"});
        awaitRows("ods.items", "+I(2, ink2)");
        assertThat(table("ods.items").primaryKeys()).containsExactly("id");

        KAFKA.createTopic("logs", 1);
        KAFKA.send("logs", "{\"ip\":\"10.0.0.1\",\"path\":\"/a\",\"bytes\":512}",
                "{\"ip\":\"10.0.0.2\",\"path\":\"/b\",\"bytes\":64}");
        start("kafka_sync_table", kafka("logs", "json"), new String[] {"--database", "ods", "--table", "access",
                "--primary_keys", "ip", "--table_conf", "bucket=1"});
        awaitRows("ods.access", "+I(10.0.0.1, /a, 512)", "+I(10.0.0.2, /b, 64)");
    }

    @Test
    void oggDatabaseSyncAndAnAwsDmsTableSync() throws Exception {
        KAFKA.createTopic("ogg", 1);
        String ogg = "{\"table\":\"SHOP.ITEMS\",\"op_ts\":\"2024-01-02 03:04:05.000000\",\"primary_keys\":[\"ID\"],";
        KAFKA.send("ogg",
                ogg + "\"op_type\":\"I\",\"after\":{\"ID\":1,\"NAME\":\"pen\",\"QTY\":null}}",
                ogg + "\"op_type\":\"I\",\"after\":{\"ID\":2,\"NAME\":\"cap\",\"QTY\":5}}",
                ogg + "\"op_type\":\"U\",\"before\":{\"ID\":1,\"NAME\":\"pen\",\"QTY\":null},"
                        + "\"after\":{\"ID\":1,\"NAME\":\"pen\",\"QTY\":3}}",
                ogg + "\"op_type\":\"D\",\"before\":{\"ID\":2,\"NAME\":\"cap\",\"QTY\":5}}");
        start("kafka_sync_database", kafka("ogg", "ogg-json"), new String[] {"--database", "ods",
                "--table_conf", "bucket=1", "-D", "parallelism.default=1"});

        KAFKA.createTopic("dms", 1);
        String meta = "\"metadata\":{\"timestamp\":\"2024-01-02T03:04:05.000Z\",\"record-type\":\"data\","
                + "\"schema-name\":\"shop\",\"table-name\":\"orders\",\"operation\":";
        KAFKA.send("dms",
                "{\"control\":{},\"metadata\":{\"record-type\":\"control\",\"operation\":\"create-table\"}}",
                "{\"data\":{\"id\":1,\"v\":\"a\"}," + meta + "\"load\"}}",
                "{\"data\":{\"id\":2,\"v\":\"b\"}," + meta + "\"insert\"}}",
                "{\"data\":{\"id\":1,\"v\":\"a2\"},\"before-image\":{\"id\":1,\"v\":\"a\"}," + meta
                        + "\"update\"}}",
                "{\"data\":{\"id\":2,\"v\":\"b\"}," + meta + "\"delete\"}}");
        start("kafka_sync_table", kafka("dms", "aws-dms-json"), new String[] {"--database", "ods", "--table",
                "orders", "--primary_keys", "id", "--table_conf", "bucket=1", "-D", "parallelism.default=1"});

        awaitRows("ods.ITEMS", "+I(1, pen, 3)");
        assertThat(table("ods.ITEMS").primaryKeys()).containsExactly("ID");
        assertThat(table("ods.ITEMS").rowType().toString()).contains("`ID` STRING NOT NULL", "`QTY` STRING");
        awaitRows("ods.orders", "+I(1, a2)");
    }

    @Test
    void recordsWithoutKeyGoIntoAnAppendTableWithTheKafkaMetadataColumns() throws Exception {
        KAFKA.createTopic("keyless", 1);
        DebeziumEvents events = new DebeziumEvents("app", "events")
                .column("name", "\"type\":\"string\",\"optional\":true")
                .column("n", "\"type\":\"int32\",\"optional\":true");
        Map<String, String> a1 = row("name", "\"a\"", "n", "1");
        Map<String, String> b1 = row("name", "\"b\"", "n", "1");
        Map<String, String> a2 = row("name", "\"a\"", "n", "2");
        KAFKA.send("keyless", events.insert(a1), events.insert(b1), events.update(a1, a2), events.delete(b1));

        start("kafka_sync_table", kafka("keyless", "debezium-json"), new String[] {"--database", "ods", "--table",
                "events", "--metadata_column", "topic,partition,offset", "--metadata_column",
                "timestamp,timestamp_type,database_name"});
        // Inserts and the rows after updates are appended; the delete is not applied (as in Paimon).
        await().atMost(2, TimeUnit.MINUTES).untilAsserted(() -> assertThat(warehouse.rows("ods.events")).hasSize(3));
        Table events2 = table("ods.events");
        assertThat(events2.primaryKeys()).isEmpty();
        assertThat(events2.rowType().toString()).contains("`topic` STRING", "`partition` INT", "`offset` BIGINT",
                "`timestamp` TIMESTAMP(3) WITH LOCAL TIME ZONE", "`timestamp_type` STRING",
                "`database_name` STRING NOT NULL");
        List<String> rows = warehouse.rows("ods.events").stream()
                .map(r -> r.replaceAll(", \\d{4}-\\d\\d-\\d\\dT[0-9:.]+Z?, ", ", <time>, ")).sorted().toList();
        assertThat(rows).containsExactly("+I(a, 1, keyless, 0, 0, <time>, CreateTime, app)",
                "+I(a, 2, keyless, 0, 2, <time>, CreateTime, app)", "+I(b, 1, keyless, 0, 1, <time>, CreateTime, app)");
        assertThatThrownBy(() -> start("mysql_sync_table", new String[] {"--warehouse", warehouse.uri(), "--database",
                "ods", "--table", "t", "--mysql_conf", "table-name=t", "--metadata_column", "offset"}))
                .hasMessageContaining("Unknown --metadata_column 'offset'; a MySQL sync has table_name, database_name, "
                        + "op_ts");
    }

    private static String canalInsert(int id) {
        return "{\"data\":[{\"id\":\"" + id + "\"}],\"mysqlType\":{\"id\":\"int\"},\"pkNames\":[\"id\"],"
                + "\"database\":\"d\",\"table\":\"t\",\"type\":\"INSERT\"}";
    }

    private String[] startAt(String table, String group, String... kafkaConf) {
        // One slot per job: the four jobs run at once.
        List<String> args = new ArrayList<>(List.of("--database", "ods", "--table", table, "--table_conf", "bucket=1",
                "--kafka_conf", "properties.group.id=" + group, "-D", "parallelism.default=1"));
        for (String conf : kafkaConf) {
            args.add("--kafka_conf");
            args.add(conf);
        }
        return args.toArray(new String[0]);
    }

    @Test
    void eachStartupModeStartsWhereItSays() throws Exception {
        KAFKA.createTopic("modes", 1);
        KAFKA.send("modes", canalInsert(1), canalInsert(2));
        Thread.sleep(20); // the next record's timestamp is later than these two's
        long third = System.currentTimeMillis();
        Thread.sleep(20);
        KAFKA.send("modes", canalInsert(3));

        start("kafka_sync_table", kafka("modes", "canal-json"),
                startAt("at_offset", "g1", "scan.startup.mode=specific-offsets",
                        "scan.startup.specific-offsets=partition:0,offset:1"));
        start("kafka_sync_table", kafka("modes", "canal-json"),
                startAt("at_time", "g2", "scan.startup.mode=timestamp", "scan.startup.timestamp-millis=" + third));
        // A group without committed offsets starts at the earliest record.
        JobClient grouped = start("kafka_sync_table", kafka("modes", "canal-json"), startAt("by_group", "g3"));
        awaitRows("ods.at_offset", "+I(2)", "+I(3)");
        awaitRows("ods.at_time", "+I(3)");
        awaitRows("ods.by_group", "+I(1)", "+I(2)", "+I(3)");

        // The group's offsets are committed with checkpoints; a new job of the group goes on from them.
        try (org.apache.kafka.clients.admin.Admin admin = org.apache.kafka.clients.admin.Admin.create(
                Map.of("bootstrap.servers", KAFKA.bootstrapServers()))) {
            await().atMost(1, TimeUnit.MINUTES).until(() -> {
                var offsets = admin.listConsumerGroupOffsets("g3").partitionsToOffsetAndMetadata().get();
                var committed = offsets.get(new org.apache.kafka.common.TopicPartition("modes", 0));
                return committed != null && committed.offset() == 3;
            });
        }
        grouped.cancel().get(1, TimeUnit.MINUTES);
        KAFKA.send("modes", canalInsert(4));
        start("kafka_sync_table", kafka("modes", "canal-json"), startAt("by_group_again", "g3"));

        // latest-offset: only what is sent after the job started (sent until it arrives).
        start("kafka_sync_table", kafka("modes", "canal-json"),
                startAt("from_latest", "g4", "scan.startup.mode=latest-offset"));
        await().atMost(2, TimeUnit.MINUTES).pollInterval(java.time.Duration.ofMillis(500)).until(() -> {
            KAFKA.send("modes", canalInsert(5));
            return warehouse.catalog().tableExists(dev.streamhouse.storage.catalog.Identifier.of("ods", "from_latest"))
                    && !warehouse.rows("ods.from_latest").isEmpty();
        });
        awaitRows("ods.from_latest", "+I(5)");
        awaitRows("ods.by_group_again", "+I(4)", "+I(5)");
    }

    @Test
    void aMalformedRecordFailsTheJobNamingTopicPartitionAndOffsetUnlessSkipped() throws Exception {
        KAFKA.createTopic("broken", 1);
        KAFKA.send("broken", "{\"data\":[{\"id\":\"1\"}],\"mysqlType\":{\"id\":\"int\"},\"pkNames\":[\"id\"],"
                + "\"database\":\"d\",\"table\":\"t\",\"type\":\"INSERT\"}", "not json at all",
                "{\"data\":[{\"id\":\"2\"}],\"mysqlType\":{\"id\":\"int\"},\"pkNames\":[\"id\"],"
                        + "\"database\":\"d\",\"table\":\"t\",\"type\":\"INSERT\"}");
        JobClient failing = start("kafka_sync_table", kafka("broken", "canal-json"), new String[] {"--database", "ods",
                "--table", "t", "--table_conf", "bucket=1"});
        assertThatThrownBy(() -> failing.getJobExecutionResult().get(2, TimeUnit.MINUTES))
                .isInstanceOf(ExecutionException.class)
                .rootCause().hasMessageContaining("topic broken, partition 0, offset 1 as canal-json");
        assertThat(failing.getJobStatus().get()).isEqualTo(JobStatus.FAILED);

        start("kafka_sync_table", kafka("broken", "canal-json"), new String[] {"--database", "ods", "--table", "t2",
                "--table_conf", "bucket=1", "--kafka_conf", "canal-json.ignore-parse-errors=true"});
        awaitRows("ods.t2", "+I(1)", "+I(2)");
    }

    @Test
    void aMissingTopicAnUnreachableBrokerAndAWrongOptionFailBeforeTheJobStarts() {
        assertThatThrownBy(() -> start("kafka_sync_table", kafka("no_such_topic", "canal-json"),
                new String[] {"--database", "ods", "--table", "t"}))
                .hasMessageContaining("has no topic no_such_topic");
        String[] args = kafka("x", "canal-json");
        for (int i = 0; i < args.length; i++) {
            if (args[i].startsWith("properties.bootstrap.servers=")) {
                args[i] = "properties.bootstrap.servers=127.0.0.1:1";
            }
        }
        assertThatThrownBy(() -> start("kafka_sync_table", args, new String[] {"--database", "ods", "--table", "t",
                "--kafka_conf", "properties.default.api.timeout.ms=3000"}))
                .hasMessageContaining("Cannot reach Kafka at 127.0.0.1:1");
        assertThatThrownBy(() -> start("kafka_sync_table", kafka("x", "debezium-avro"),
                new String[] {"--database", "ods", "--table", "t"}))
                .hasMessageContaining("value.format 'debezium-avro' is not supported yet");
        assertThatThrownBy(() -> start("kafka_sync_table", kafka("x", "canal-json"),
                new String[] {"--database", "ods", "--table", "t", "--kafka_conf", "scan.startup.mode=sometime"}))
                .hasMessageContaining("scan.startup.mode=sometime");
        assertThatThrownBy(() -> start("kafka_sync_table", kafka("x", "canal-json"), new String[] {"--database", "ods",
                "--table", "t", "--kafka_conf", "debezium-json.ignore-parse-errors=true"}))
                .as("another format's option is refused, not ignored")
                .hasMessageContaining("--kafka_conf debezium-json.ignore-parse-errors is not an option of a canal-json "
                        + "Kafka sync");
    }
}
