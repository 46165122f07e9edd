package dev.streamhouse.storage.table.source;

import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.testutils.TestTables;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code incremental-between-timestamp}: the changes of the snapshots committed in (t1, t2], as Paimon 1.3.1 maps the times. */
class IncrementalBetweenTimestampTest {
    @TempDir
    java.nio.file.Path dir;

    @Test
    void timesMapToTheSnapshotsCommittedBetweenThem() throws Exception {
        FileStoreTable table = TestTables.create(LocalFileIO.INSTANCE, new Path(dir.toString() + "/db.db/t"),
                TestTables.simpleSchema());
        assertThat(read(table, "0,1")).isEmpty();
        List<Long> times = new ArrayList<>();
        for (int i = 1; i <= 3; i++) {
            TestTables.write(table, TestTables.rows(i * 10, 2, 2));
            times.add(table.snapshotManager().snapshot(i).timeMillis());
            Thread.sleep(2); // distinct commit times, so that each time names one snapshot
        }
        assertThat(read(table, times.get(0) + "," + times.get(2))).isEqualTo(rows(2, 3));
        assertThat(read(table, (times.get(0) - 1) + "," + times.get(1))).isEqualTo(rows(1, 2));
        assertThat(read(table, "0," + Long.MAX_VALUE)).isEqualTo(rows(1, 3));
        assertThat(read(table, times.get(1) + "," + times.get(1))).isEmpty();
        assertThat(read(table, (times.get(2) + 1) + "," + (times.get(2) + 5))).isEmpty();
        assertThat(read(table, "0,1")).isEmpty();
        assertThatThrownBy(() -> read(table, "5,1")).hasMessageContaining("the end time 1 is before the start time 5");
        assertThatThrownBy(() -> read(table, "x,1")).hasMessageContaining("'x' is neither epoch millis");
        assertThatThrownBy(() -> table.copy(Map.of("incremental-between-timestamp", "0,1")).newReadBuilder().newStreamScan())
                .hasMessageContaining("it is for batch reads");
    }

    private static List<String> rows(int fromSnapshot, int toSnapshot) {
        List<InternalRow> rows = new ArrayList<>();
        for (int i = fromSnapshot; i <= toSnapshot; i++) {
            rows.addAll(TestTables.rows(i * 10, 2, 2));
        }
        return TestTables.show(rows);
    }

    private static List<String> read(FileStoreTable table, String between) throws Exception {
        return TestTables.read(table.copy(Map.of("incremental-between-timestamp", between)).newReadBuilder());
    }
}
