package dev.streamhouse.storage.maintenance.partition;

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.schema.Schema;
import dev.streamhouse.storage.snapshot.CommitKind;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.table.Table;
import dev.streamhouse.storage.table.sink.TableCommit;
import dev.streamhouse.storage.table.sink.TableWrite;
import dev.streamhouse.storage.testutils.TestTables;
import dev.streamhouse.storage.types.DataTypes;

import static dev.streamhouse.storage.testutils.TestTables.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Partition expiration with Apache Paimon's options: by values (formatter, pattern over two keys,
 * values that are no time are kept), by update time, the max number per run, and automatically after a
 * writer's commit; the drop is one OVERWRITE snapshot and older snapshots still read the rows.
 */
class TablePartitionExpirationTest {
    @TempDir
    java.nio.file.Path dir;

    private FileStoreTable create(String... options) throws Exception {
        return TestTables.create(LocalFileIO.INSTANCE, new Path(dir.toString() + "/db.db/t"),
                TestTables.simpleSchema(options));
    }

    private static List<String> partitions(Table table) {
        List<String> out = new ArrayList<>();
        table.partitions().forEach(p -> out.add(String.join("/", p.spec().values())));
        return out;
    }

    private static final LocalDateTime NOW = LocalDateTime.of(2024, 1, 10, 12, 0);

    @Test
    void valuesTimeWithFormatterDropsOldPartitionsInOneOverwriteSnapshot() throws Exception {
        FileStoreTable table = create("partition.expiration-time", "3 d", "partition.timestamp-formatter", "yyyyMMdd");
        TestTables.write(table, List.of(row(1, "a", "20240101"), row(2, "b", "20240106"), row(3, "c", "20240108"),
                row(4, "d", "20240110"), row(5, "e", "not-a-day")));
        long before = table.latestSnapshot().get().id();

        List<java.util.LinkedHashMap<String, String>> expired = TablePartitionExpiration.of(table).expire(NOW);

        // threshold 2024-01-07 12:00: 01 and 06 are older; 08 and 10 are not; 'not-a-day' is kept
        assertThat(expired).containsExactly(new java.util.LinkedHashMap<>(Map.of("dt", "20240101")),
                new java.util.LinkedHashMap<>(Map.of("dt", "20240106")));
        assertThat(partitions(table)).containsExactlyInAnyOrder("20240108", "20240110", "not-a-day");
        Snapshot drop = table.latestSnapshot().get();
        assertThat(drop.id()).isEqualTo(before + 1);
        assertThat(drop.commitKind()).isEqualTo(CommitKind.OVERWRITE);
        assertThat(TestTables.readAll(table)).hasSize(3);
        // the earlier snapshot still reads every row (its files are only gone after snapshot expiration)
        assertThat(TestTables.readAll(table.copy(Map.of("scan.snapshot-id", String.valueOf(before))))).hasSize(5);

        assertThat(TablePartitionExpiration.of(table).expire(NOW)).isEmpty();
        assertThat(table.latestSnapshot().get().id()).isEqualTo(before + 1);
    }

    @Test
    void defaultFormAndMaxNumberTakeTheSmallestValuesFirst() throws Exception {
        FileStoreTable table = create("partition.expiration-time", "1 d", "partition.expiration-max-num", "2");
        TestTables.write(table, List.of(row(1, "a", "2024-01-03"), row(2, "b", "2024-01-01"),
                row(3, "c", "2024-01-02 10:00:00"), row(4, "d", "2024-01-10")));

        assertThat(TablePartitionExpiration.of(table).expire(NOW)).extracting(m -> m.get("dt"))
                .containsExactly("2024-01-01", "2024-01-02 10:00:00");
        assertThat(partitions(table)).containsExactlyInAnyOrder("2024-01-03", "2024-01-10");
    }

    @Test
    void timestampPatternCombinesTwoPartitionKeys() throws Exception {
        Schema schema = Schema.newBuilder().column("id", DataTypes.INT()).column("dt", DataTypes.STRING())
                .column("hh", DataTypes.STRING()).partitionKeys("dt", "hh")
                .option("partition.expiration-time", "2 h")
                .option("partition.timestamp-pattern", "$dt $hh:00:00")
                .option("partition.timestamp-formatter", "yyyyMMdd HH:mm:ss").build();
        FileStoreTable table = TestTables.create(LocalFileIO.INSTANCE, new Path(dir.toString() + "/db.db/h"), schema);
        List<InternalRow> rows = new ArrayList<>();
        for (String hh : List.of("08", "09", "10", "11")) {
            rows.add(GenericRow.of(rows.size(), BinaryString.fromString("20240110"), BinaryString.fromString(hh)));
        }
        TestTables.write(table, rows);

        // threshold 10:00: 08 and 09 are before it, 10 is not
        assertThat(TablePartitionExpiration.of(table).expire(NOW)).extracting(m -> m.get("hh")).containsExactly("08", "09");
        assertThat(partitions(table)).containsExactlyInAnyOrder("20240110/10", "20240110/11");
    }

    @Test
    void updateTimeUsesTheNewestFileOfEachPartition() throws Exception {
        FileStoreTable table = create("partition.expiration-time", "1 d", "partition.expiration-strategy", "update-time");
        TestTables.write(table, List.of(row(1, "a", "x"), row(2, "b", "y")));
        LocalDateTime now = LocalDateTime.now();

        assertThat(TablePartitionExpiration.of(table).expire(now)).isEmpty();
        assertThat(TablePartitionExpiration.of(table).expire(now.plusDays(2))).hasSize(2);
        assertThat(table.partitions()).isEmpty();
    }

    @Test
    void aWritersCommitExpiresPartitionsWhenTheCheckIntervalHasPassed() throws Exception {
        FileStoreTable table = create("partition.expiration-time", "1 d", "partition.expiration-check-interval", "0 s");
        TestTables.write(table, List.of(row(1, "old", "2000-01-01")));
        // the batch commit above already expired its own old partition
        assertThat(partitions(table)).isEmpty();

        try (TableWrite w = table.newWrite(); TableCommit c = table.newStreamCommit("job")) {
            w.write(row(2, "older", "1999-01-01"));
            w.write(row(3, "new", "2999-01-01"));
            c.commit(7, w.prepareCommit());
        }
        assertThat(partitions(table)).containsExactly("2999-01-01");
        Snapshot latest = table.latestSnapshot().get();
        assertThat(latest.commitKind()).isEqualTo(CommitKind.OVERWRITE);
        // the expiration has its own commit user, so the job's exactly-once identities stay its own
        assertThat(latest.commitUser()).startsWith("partition-expire-");
        assertThat(table.newStreamCommit("job").filterCommitted(List.of(7L))).isEmpty();
    }

    @Test
    void aLongCheckIntervalWaitsAndBadSettingsAreRefused() throws Exception {
        FileStoreTable table = create("partition.expiration-time", "1 d");
        TestTables.write(table, List.of(row(1, "old", "2000-01-01")));
        assertThat(partitions(table)).containsExactly("2000-01-01");

        FileStoreTable plain = TestTables.create(LocalFileIO.INSTANCE, new Path(dir.toString() + "/db.db/plain"),
                TestTables.simpleSchema());
        assertThatThrownBy(() -> TablePartitionExpiration.of(plain))
                .hasMessageContaining("set 'partition.expiration-time'");
        assertThatThrownBy(() -> table.copy(Map.of("partition.expiration-strategy", "custom")))
                .hasMessageContaining("custom partition expiration strategies are not supported");
        assertThatThrownBy(() -> TablePartitionExpiration.of(table.copy(Map.of("partition.timestamp-formatter", "yyyyMMddq{"))))
                .hasMessageContaining("partition.timestamp-formatter");
    }
}
