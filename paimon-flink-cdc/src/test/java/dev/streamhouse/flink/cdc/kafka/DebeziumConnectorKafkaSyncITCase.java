package dev.streamhouse.flink.cdc.kafka;

import dev.streamhouse.flink.cdc.testing.MariaDbExtension;
import dev.streamhouse.flink.cdc.testing.SyncedWarehouse;
import dev.streamhouse.storage.table.Table;
import dev.streamhouse.testing.kafka.KafkaExtension;
import io.debezium.engine.ChangeEvent;
import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.format.Json;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.AbstractMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code kafka_sync_database} of what a real Debezium MySQL-family connector writes: Debezium's
 * embedded engine reads a MariaDB table (snapshot, then binlog) and its events, converted by Kafka
 * Connect's JSON converter as a Kafka Connect worker converts them (schemas in key and value, the
 * key holding the primary key, a tombstone after each delete), go into a real Kafka topic. The
 * synced table has the key of the record key, a type for every column from Connect's schema, every
 * value and NULL as MariaDB holds it, the column added while the sync runs, and no deleted row.
 */
class DebeziumConnectorKafkaSyncITCase {
    @RegisterExtension
    static final MariaDbExtension MARIADB = new MariaDbExtension();

    @RegisterExtension
    static final KafkaExtension KAFKA = new KafkaExtension();

    @RegisterExtension
    static final MiniClusterExtension FLINK = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(2).build());

    private static final String TOPIC = "dbserver1.inv.products";

    @TempDir
    Path dir;

    private final List<ChangeEvent<String, String>> events = new CopyOnWriteArrayList<>();
    private ExecutorService engineThread;
    private DebeziumEngine<ChangeEvent<String, String>> engine;
    private SyncedWarehouse warehouse;

    @AfterEach
    void stop() throws Exception {
        if (engine != null) {
            engine.close();
        }
        if (engineThread != null) {
            engineThread.shutdownNow();
            engineThread.awaitTermination(30, TimeUnit.SECONDS);
        }
        if (warehouse != null) {
            warehouse.cancelJobs();
        }
    }

    private void startDebezium() {
        Properties p = new Properties();
        p.setProperty("name", "inventory-connector");
        p.setProperty("connector.class", "io.debezium.connector.mariadb.MariaDbConnector");
        p.setProperty("topic.prefix", "dbserver1");
        p.setProperty("database.hostname", MARIADB.host());
        p.setProperty("database.port", Integer.toString(MARIADB.port()));
        p.setProperty("database.user", MariaDbExtension.CDC_USER);
        p.setProperty("database.password", MariaDbExtension.CDC_PASSWORD);
        p.setProperty("database.server.id", "6401");
        p.setProperty("database.include.list", "inv");
        p.setProperty("database.connectionTimeZone", "UTC");
        p.setProperty("offset.storage", "org.apache.kafka.connect.storage.MemoryOffsetBackingStore");
        p.setProperty("offset.flush.interval.ms", "60000");
        p.setProperty("schema.history.internal", "io.debezium.relational.history.MemorySchemaHistory");
        p.setProperty("include.schema.changes", "false");
        engine = DebeziumEngine.create(Json.class).using(p)
                .notifying(event -> {
                    if (event.destination().equals(TOPIC)) {
                        events.add(event);
                    }
                })
                .build();
        engineThread = Executors.newSingleThreadExecutor();
        engineThread.execute(engine);
    }

    /** Waits for {@code count} events in all, then sends the ones not sent yet to the topic. */
    private int forward(int sent, int count) {
        await().atMost(Duration.ofMinutes(2)).until(() -> events.size() >= count);
        List<Map.Entry<String, String>> records = events.subList(sent, count).stream()
                .map(e -> (Map.Entry<String, String>) new AbstractMap.SimpleEntry<>(e.key(), e.value())).toList();
        KAFKA.send(TOPIC, 0, records);
        return count;
    }

    @Test
    void aRealDebeziumConnectorsEventsSyncWithTypesKeysChangesAndAnAddedColumn() throws Exception {
        MARIADB.execute("CREATE DATABASE inv",
                "CREATE TABLE inv.products (id INT PRIMARY KEY, big BIGINT, price DECIMAL(10, 2) NOT NULL,"
                        + " name VARCHAR(20), note TEXT, flag TINYINT(1), ratio DOUBLE, made DATETIME(3),"
                        + " changed TIMESTAMP(6) NULL, day DATE, at TIME(3), data VARBINARY(8), kind ENUM('a', 'b'),"
                        + " yr YEAR)",
                "INSERT INTO inv.products VALUES (1, 5000000000, 9.99, 'pen', 'blue ink', 1, 0.5,"
                        + " '2024-01-02 10:15:30.500', '2024-01-02 10:15:30.123456', '2024-01-02', '10:15:30.250',"
                        + " X'CAFE', 'a', 2024)",
                "INSERT INTO inv.products (id, price) VALUES (2, 1.00)",
                "INSERT INTO inv.products (id, price, name) VALUES (3, 3.00, 'gone')");
        KAFKA.createTopic(TOPIC, 1);
        startDebezium();
        int sent = forward(0, 3); // the snapshot: three reads

        warehouse = new SyncedWarehouse(dir);
        warehouse.start("kafka_sync_database", List.of("--warehouse", warehouse.uri(), "--database", "ods",
                "--kafka_conf", "properties.bootstrap.servers=" + KAFKA.bootstrapServers(),
                "--kafka_conf", "topic=" + TOPIC, "--kafka_conf", "properties.group.id=dbz",
                "--kafka_conf", "value.format=debezium-json", "--table_conf", "bucket=1",
                "-D", "execution.checkpointing.interval=300ms", "-D", "parallelism.default=1"));
        // Rows as the store holds them: a DATE as days since 1970-01-01 (19724 is 2024-01-02), a TIME as
        // milliseconds of the day (36930250 is 10:15:30.250), BYTES as signed bytes (X'CAFE').
        warehouse.awaitRows("ods.products",
                "+I(1, 5000000000, 9.99, pen, blue ink, 1, 0.5, 2024-01-02T10:15:30.500, 2024-01-02T10:15:30.123456, "
                        + "19724, 36930250, [-54, -2], a, 2024)",
                "+I(2, null, 1.00, null, null, null, null, null, null, null, null, null, null, null)",
                "+I(3, null, 3.00, gone, null, null, null, null, null, null, null, null, null, null)");
        Table products = warehouse.table("ods.products");
        assertThat(products.primaryKeys()).as("from the record key").containsExactly("id");
        // Kafka Connect's types as Debezium writes them (no source types: column.propagate.source.type is
        // off by default): VARCHAR and TEXT are strings, TINYINT(1) is int16, MicroTime has no precision.
        assertThat(products.rowType().toString()).isEqualTo("ROW<`id` INT NOT NULL, `big` BIGINT, `price` DECIMAL(10, 2) "
                + "NOT NULL, `name` STRING, `note` STRING, `flag` SMALLINT, `ratio` DOUBLE, `made` TIMESTAMP(3), "
                + "`changed` TIMESTAMP(6) WITH LOCAL TIME ZONE, `day` DATE, `at` TIME(6), `data` BYTES, `kind` STRING, "
                + "`yr` INT>");

        MARIADB.execute("UPDATE inv.products SET name = 'ink', flag = 0 WHERE id = 2",
                "DELETE FROM inv.products WHERE id = 3",
                "ALTER TABLE inv.products ADD COLUMN stock INT",
                "INSERT INTO inv.products (id, price, stock) VALUES (4, 4.00, 40)");
        sent = forward(sent, 7); // update, delete, its tombstone, insert
        assertThat(events.get(5).value()).as("the tombstone after the delete").isNull();
        warehouse.awaitRows("ods.products",
                "+I(1, 5000000000, 9.99, pen, blue ink, 1, 0.5, 2024-01-02T10:15:30.500, 2024-01-02T10:15:30.123456, "
                        + "19724, 36930250, [-54, -2], a, 2024, null)",
                "+I(2, null, 1.00, ink, null, 0, null, null, null, null, null, null, null, null, null)",
                "+I(4, null, 4.00, null, null, null, null, null, null, null, null, null, null, null, 40)");
    }
}
