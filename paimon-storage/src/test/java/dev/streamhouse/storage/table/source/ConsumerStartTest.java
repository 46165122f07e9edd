package dev.streamhouse.storage.table.source;

import dev.streamhouse.storage.maintenance.consumer.ConsumerManager;
import dev.streamhouse.storage.maintenance.consumer.CorruptConsumerException;
import dev.streamhouse.storage.snapshot.ExpiredSnapshotException;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.table.source.StreamFixture.Planned;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.util.List;
import java.util.Map;

import static dev.streamhouse.storage.table.source.StreamFixture.drain;
import static dev.streamhouse.storage.table.source.StreamFixture.rows;
import static dev.streamhouse.storage.testutils.TestTables.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A streaming read with {@code consumer-id} starts at the consumer's saved progress. */
class ConsumerStartTest {
    @TempDir
    java.nio.file.Path tmp;

    private StreamFixture fx;
    private FileStoreTable table;
    private ConsumerManager consumers;

    @BeforeEach
    void threeSnapshots() throws Exception {
        fx = new StreamFixture(tmp);
        table = fx.appendTable();
        for (int i = 1; i <= 3; i++) {
            fx.commit(table, row(i, "r" + i, "a"));
        }
        consumers = new ConsumerManager(table.fileIO(), table.location());
    }

    private List<Planned> stream(String... options) throws Exception {
        Map<String, String> m = new java.util.HashMap<>();
        for (int i = 0; i < options.length; i += 2) {
            m.put(options[i], options[i + 1]);
        }
        ReadBuilder rb = table.copy(m).newReadBuilder();
        return drain(rb.newStreamScan(), rb);
    }

    @Test
    void savedProgressWinsOverTheScanMode() throws Exception {
        consumers.commit("job", 2);
        List<Planned> plans = stream("consumer-id", "job", "scan.mode", "latest-full");
        assertThat(plans).extracting(Planned::snapshotId).containsExactly(2L, 3L);
        assertThat(plans).allSatisfy(p -> assertThat(p.splits()).allMatch(DataSplit::delta));
        assertThat(rows(plans)).containsExactly("+I(2, r2, a)", "+I(3, r3, a)");
        // The scan only reads the consumer; saving progress is the caller's job.
        assertThat(consumers.nextSnapshot("job")).contains(2L);
    }

    @Test
    void savedProgressIsReadInFullEvenWhenFromTimestampWouldStartLater() throws Exception {
        consumers.commit("job", 2);
        long afterAll = table.latestSnapshot().orElseThrow().timeMillis() + 1;
        List<Planned> plans = stream("consumer-id", "job", "scan.mode", "from-timestamp", "scan.timestamp-millis",
                String.valueOf(afterAll));
        assertThat(rows(plans)).containsExactly("+I(2, r2, a)", "+I(3, r3, a)");
        // Without the consumer: only what comes after the latest snapshot.
        assertThat(stream("scan.mode", "from-timestamp", "scan.timestamp-millis", String.valueOf(afterAll))).isEmpty();
    }

    @Test
    void ignoreProgressOrAnUnknownConsumerStartsAsTheScanModeSays() throws Exception {
        consumers.commit("job", 2);
        List<Planned> ignoring = stream("consumer-id", "job", "consumer.ignore-progress", "true");
        assertThat(ignoring).extracting(Planned::snapshotId).containsExactly(3L);
        assertThat(ignoring.get(0).splits()).noneMatch(DataSplit::delta);

        List<Planned> fresh = stream("consumer-id", "new-job", "scan.mode", "from-snapshot", "scan.snapshot-id", "3");
        assertThat(rows(fresh)).containsExactly("+I(3, r3, a)");
    }

    @Test
    void progressAheadOfTheTableWaitsAndExpiredProgressFails() throws Exception {
        consumers.commit("ahead", 5);
        ReadBuilder rb = table.copy(Map.of("consumer-id", "ahead")).newReadBuilder();
        StreamTableScan scan = rb.newStreamScan();
        assertThat(drain(scan, rb)).isEmpty();
        assertThat(scan.checkpoint()).isEqualTo(5);

        consumers.commit("behind", 1);
        StreamFixture.expireBefore(table, 2);
        assertThatThrownBy(() -> stream("consumer-id", "behind")).isInstanceOf(ExpiredSnapshotException.class)
                .hasMessageContaining("Cannot read snapshot 1 of table default.test");
    }

    @Test
    void aCorruptConsumerFileFailsTheStart() throws Exception {
        Files.createDirectories(java.nio.file.Path.of(consumers.consumerDirectory().toString()));
        Files.writeString(java.nio.file.Path.of(consumers.consumerPath("job").toString()), "{");
        assertThatThrownBy(() -> stream("consumer-id", "job")).isInstanceOf(CorruptConsumerException.class)
                .hasMessageContaining("consumer-job");
        assertThatThrownBy(() -> stream("consumer-id", "a/b")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'consumer-id'");
    }

    @Test
    void theScanRecordsItsConsumersProgressForTheNextRead() throws Exception {
        ReadBuilder rb = table.copy(Map.of("consumer-id", "job", "scan.mode", "from-snapshot", "scan.snapshot-id",
                "1")).newReadBuilder();
        StreamTableScan scan = rb.newStreamScan();
        assertThat(scan.consumerId()).contains("job");
        drain(scan, rb);
        scan.recordConsumerProgress(scan.checkpoint());
        assertThat(consumers.nextSnapshot("job")).contains(4L);

        fx.commit(table, row(4, "r4", "a"));
        assertThat(rows(stream("consumer-id", "job"))).containsExactly("+I(4, r4, a)");
    }

    @Test
    void aScanWithoutConsumerIdRecordsNoProgress() {
        StreamTableScan scan = table.newReadBuilder().newStreamScan();
        assertThat(scan.consumerId()).isEmpty();
        assertThatThrownBy(() -> scan.recordConsumerProgress(2)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("default.test");
    }

    @Test
    void aConsumerIdThatCannotNameAFileIsRefusedWithTheOption() {
        assertThatThrownBy(() -> table.copy(Map.of("consumer-id", " "))).hasMessageContaining("'consumer-id'");
        assertThatThrownBy(() -> table.copy(Map.of("consumer-id", "a\\b"))).hasMessageContaining("'consumer-id'");
    }
}
