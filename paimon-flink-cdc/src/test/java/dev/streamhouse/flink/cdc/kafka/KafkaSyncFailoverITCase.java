package dev.streamhouse.flink.cdc.kafka;

import dev.streamhouse.flink.cdc.action.CdcActionsTesting;
import dev.streamhouse.flink.cdc.testing.SyncFailoverChecks;
import dev.streamhouse.flink.cdc.testing.SyncedWarehouse;
import dev.streamhouse.storage.table.Table;
import dev.streamhouse.testing.kafka.KafkaExtension;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static dev.streamhouse.flink.cdc.kafka.DebeziumEvents.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A Kafka sync that crashes (cancelled without a savepoint while a producer keeps writing Debezium
 * events to a two-partition topic) and is restarted from its last retained checkpoint, twice: the
 * table ends equal to the source's rows, and its input changelog holds every change exactly once, in
 * order per key, none lost and none repeated, also of the changes produced while the job was down.
 */
class KafkaSyncFailoverITCase {
    @RegisterExtension
    static final KafkaExtension KAFKA = new KafkaExtension();

    @RegisterExtension
    static final MiniClusterExtension FLINK = new MiniClusterExtension(new MiniClusterResourceConfiguration.Builder()
            .setNumberTaskManagers(1).setNumberSlotsPerTaskManager(4).build());

    private static final int KEYS = 20;
    private static final int CHANGES = 1500;

    @TempDir
    Path dir;

    private JobClient start(Path checkpoints, String restoreFrom) throws Exception {
        List<String> args = new ArrayList<>(List.of("--warehouse", dir.resolve("wh").toUri().toString(),
                "--database", "ods", "--table", "t", "--table_conf", "bucket=2",
                "--table_conf", "changelog-producer=input",
                "--kafka_conf", "properties.bootstrap.servers=" + KAFKA.bootstrapServers(),
                "--kafka_conf", "topic=fo", "--kafka_conf", "properties.group.id=fo",
                "--kafka_conf", "value.format=debezium-json",
                "-D", "execution.checkpointing.interval=200ms", "-D", "parallelism.default=2",
                "-D", "execution.checkpointing.dir=" + checkpoints.toUri(),
                "-D", "execution.checkpointing.externalized-checkpoint-retention=RETAIN_ON_CANCELLATION"));
        if (restoreFrom != null) {
            args.addAll(List.of("-D", "execution.state-recovery.path=" + restoreFrom));
        }
        return CdcActionsTesting.submit("kafka_sync_table", args.toArray(new String[0]));
    }

    @Test
    @Timeout(300)
    void aCrashedSyncRestartedFromItsCheckpointLosesAndRepeatsNoChange() throws Exception {
        KAFKA.createTopic("fo", 2);
        DebeziumEvents t = new DebeziumEvents("fo", "t")
                .column("id", "\"type\":\"int32\",\"optional\":false")
                .column("v", "\"type\":\"int32\",\"optional\":false")
                .key("id");
        send(t, 0, null, row("id", "0", "v", "0"));
        AtomicReference<Throwable> producerFailure = new AtomicReference<>();
        Thread producer = new Thread(() -> {
            try {
                Map<Integer, Integer> present = new HashMap<>(Map.of(0, 0));
                for (int i = 1; i <= CHANGES; i++) {
                    int k = i % KEYS;
                    Integer before = present.get(k);
                    SyncFailoverChecks.Change change = SyncFailoverChecks.change(i, KEYS, present);
                    Map<String, String> beforeRow = before == null ? null : row("id", "" + k, "v", "" + before);
                    Map<String, String> afterRow = row("id", "" + k, "v", "" + i);
                    switch (change) {
                        case DELETE:
                            send(t, k, beforeRow, null);
                            break;
                        case UPDATE:
                            send(t, k, beforeRow, afterRow);
                            break;
                        default:
                            send(t, k, null, afterRow);
                    }
                    Thread.sleep(2);
                }
            } catch (Throwable e) {
                producerFailure.set(e);
            }
        }, "kafka-producer");

        Path checkpoints = dir.resolve("checkpoints");
        JobClient job = start(checkpoints, null);
        Table table = awaitTable();
        producer.start();
        for (int crash = 0; crash < 2; crash++) {
            long snapshots = SyncFailoverChecks.latestSnapshot(table);
            await().atMost(Duration.ofMinutes(2)).until(() -> SyncFailoverChecks.latestSnapshot(table) >= snapshots + 3);
            job.cancel().get(1, TimeUnit.MINUTES);
            job = start(checkpoints, SyncFailoverChecks.latestCheckpoint(checkpoints));
        }
        producer.join(TimeUnit.MINUTES.toMillis(2));
        assertThat(producerFailure.get()).isNull();

        Map<Integer, Integer> rows = SyncFailoverChecks.finalRows(CHANGES, KEYS);
        await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(300))
                .untilAsserted(() -> assertThat(SyncFailoverChecks.values(table))
                        .isEqualTo(SyncFailoverChecks.expected(rows)));
        job.cancel().get(1, TimeUnit.MINUTES);
        SyncFailoverChecks.assertChangelogExact(table, rows, SyncFailoverChecks.insertsAndUpdates(CHANGES, KEYS));
    }

    /** One change of key k to the key's partition (k % 2), keyed as Debezium keys it. */
    private static void send(DebeziumEvents t, int k, Map<String, String> before, Map<String, String> after) {
        String value = before == null ? t.insert(after) : after == null ? t.delete(before) : t.update(before, after);
        String key = t.key(after != null ? after : before);
        KAFKA.send("fo", k % 2, List.of(new AbstractMap.SimpleEntry<>(key, value)));
    }

    private Table awaitTable() {
        return new SyncedWarehouse(dir.resolve("wh")).awaitTable("ods.t");
    }
}
