package dev.streamhouse.storage.table;

import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.table.sink.BatchTableCommit;
import dev.streamhouse.storage.testutils.TestTables;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Reading a table as of a snapshot id or a point in time, by API call or by table option. */
class TimeTravelTest {
    @TempDir
    java.nio.file.Path tmp;

    private FileStoreTable table;
    private final long[] times = new long[4];

    @BeforeEach
    void writeThreeSnapshots() throws Exception {
        table = TestTables.create(LocalFileIO.INSTANCE, new Path(tmp.resolve("t").toString()), TestTables.simpleSchema());
        for (int i = 1; i <= 3; i++) {
            TestTables.write(table, TestTables.rows(i * 10, 1, 1));
            times[i] = table.latestSnapshot().orElseThrow().timeMillis();
            waitForNextMillisecond(times[i]);
        }
        try (BatchTableCommit c = table.newBatchCommit()) {
            c.truncateTable();
        }
    }

    private static void waitForNextMillisecond(long millis) throws InterruptedException {
        while (System.currentTimeMillis() <= millis + 1) {
            Thread.sleep(1);
        }
    }

    private static List<String> ids(List<String> rows) {
        return rows.stream().map(r -> r.substring(3, r.indexOf(','))).toList();
    }

    @Test
    void timestampSelectsTheLatestSnapshotCommittedAtOrBeforeIt() throws Exception {
        assertThat(ids(TestTables.read(table.newReadBuilder().withTimestampMillis(times[1])))).containsExactly("10");
        assertThat(ids(TestTables.read(table.newReadBuilder().withTimestampMillis(times[2] + 1))))
                .containsExactly("10", "20");
        assertThat(ids(TestTables.read(table.newReadBuilder().withTimestampMillis(times[3]))))
                .containsExactly("10", "20", "30");
        assertThat(TestTables.read(table.newReadBuilder().withTimestampMillis(Long.MAX_VALUE))).isEmpty();
        assertThat(table.newReadBuilder().withTimestampMillis(times[2]).newScan().plan().snapshotId()).isEqualTo(2);
    }

    @Test
    void aTimeBeforeTheFirstSnapshotIsAnError() {
        assertThatThrownBy(() -> table.newReadBuilder().withTimestampMillis(times[1] - 1).newScan().plan())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Cannot read table default.test as of " + (times[1] - 1))
                .hasMessageContaining("its earliest snapshot 1 was committed later, at " + times[1]);
    }

    @Test
    void anEmptyTableReadsEmptyAtAnyTime() throws Exception {
        FileStoreTable empty = TestTables.create(LocalFileIO.INSTANCE, new Path(tmp.resolve("e").toString()),
                TestTables.simpleSchema());
        assertThat(empty.newReadBuilder().withTimestampMillis(0).newScan().plan().snapshotId()).isNull();
    }

    @Test
    void scanOptionsSelectTheDefaultSnapshotAndExplicitCallsWin() throws Exception {
        Table bySnapshot = table.copy(Map.of("scan.snapshot-id", "2"));
        assertThat(ids(TestTables.readAll(bySnapshot))).containsExactly("10", "20");
        Table byTime = table.copy(Map.of("scan.timestamp-millis", Long.toString(times[1])));
        assertThat(ids(TestTables.readAll(byTime))).containsExactly("10");
        assertThat(ids(TestTables.read(byTime.newReadBuilder().withSnapshot(3)))).containsExactly("10", "20", "30");
        assertThat(ids(TestTables.read(bySnapshot.newReadBuilder().withTimestampMillis(times[1]))))
                .containsExactly("10");
        assertThatThrownBy(() -> table.copy(Map.of("scan.snapshot-id", "1", "scan.timestamp-millis", "5")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Cannot use table default.test with dynamic options: option 'scan.snapshot-id' cannot be "
                        + "combined with 'scan.mode' = 'default' (here from-timestamp); remove one of them");
        assertThatThrownBy(() -> TestTables.readAll(table.copy(Map.of("scan.snapshot-id", "9"))))
                .hasMessageContaining("Cannot read snapshot 9 of table default.test");
        assertThat(table.latestSnapshot().map(Snapshot::id)).contains(4L);
    }
}
