package dev.streamhouse.storage.maintenance.expire;

import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.reader.RecordReader;
import dev.streamhouse.storage.snapshot.ExpiredSnapshotException;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.table.source.ReadBuilder;
import dev.streamhouse.storage.table.source.Split;
import dev.streamhouse.storage.table.source.StreamTableScan;
import dev.streamhouse.storage.testutils.FailingFileIO;
import dev.streamhouse.storage.testutils.FileOperation;
import dev.streamhouse.storage.testutils.TestTables;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.List;
import java.time.Duration;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Readers and a real expiration: a streaming reader that fell behind gets
 * {@link ExpiredSnapshotException} naming the options to raise, also while the expired snapshot
 * files still exist but their files are gone (an expiration interrupted before its last step), and a
 * reader starting from the earliest snapshot starts past them.
 */
class ExpirationReaderTest {
    @TempDir
    java.nio.file.Path tmp;

    private final FailingFileIO io = FailingFileIO.wrap(LocalFileIO.INSTANCE);

    @AfterEach
    void release() {
        io.release();
    }

    @Test
    void aStreamingReaderBehindAnInterruptedExpirationGetsTheExpiredError() throws Exception {
        Path root = new Path(tmp.resolve("t").toString());
        TestTables.create(LocalFileIO.INSTANCE, root, TestTables.simpleSchema("write-only", "true"));
        FileStoreTable table = FileStoreTable.load(io, root, "default.test");
        ExpirationFixture f = new ExpirationFixture(table);
        for (int i = 0; i < 6; i++) {
            f.append(2);
        }
        ReadBuilder rb = table.copy(Map.of("scan.mode", "from-snapshot", "scan.snapshot-id", "1")).newReadBuilder();
        StreamTableScan behind = rb.newStreamScan();
        behind.plan();
        assertThat(behind.checkpoint()).isEqualTo(2);

        // Everything but the snapshot files is deleted, then the run fails.
        io.armMatching(p -> p.name().startsWith("snapshot-"), FileOperation.DELETE);
        ExpireConfig keepTwo = new ExpireConfig(2, Integer.MAX_VALUE, Duration.ZERO, 100, false, null);
        assertThatThrownBy(() -> table.newSnapshotExpiration().expire(keepTwo)).isInstanceOf(IOException.class);
        io.disarm();
        assertThat(f.snapshotIds()).hasSize(6);

        assertThatThrownBy(behind::plan).isInstanceOf(ExpiredSnapshotException.class)
                .hasMessageContaining("Cannot read snapshot 2 of table default.test: it has expired (the earliest "
                        + "one still retained is 5)").hasMessageContaining("'snapshot.num-retained.min'");
        StreamTableScan fromEarliest = table.copy(Map.of("scan.mode", "from-snapshot-full",
                "scan.snapshot-id", "5")).newReadBuilder().newStreamScan();
        assertThat(fromEarliest.plan().snapshotId()).isEqualTo(5);
        assertThat(TestTables.readAll(table)).isEqualTo(f.expectedRows.get(6L));

        // The next run finishes the job.
        assertThat(table.newSnapshotExpiration().expire(keepTwo)).isEqualTo(4);
        assertThat(f.snapshotIds()).containsExactly(5L, 6L);
        f.assertFilesOnDiskAreExactlyReferenced(java.util.List.of());
    }
    @Test
    void aBatchReadPlannedBeforeExpirationRemovedItsFilesNamesTheFileAndTheOptions() throws Exception {
        Path root = new Path(tmp.resolve("t").toString());
        TestTables.create(LocalFileIO.INSTANCE, root, TestTables.simpleSchema("write-only", "true"));
        FileStoreTable table = FileStoreTable.load(io, root, "default.test");
        ExpirationFixture f = new ExpirationFixture(table);
        f.append(4);
        f.overwriteD0(2);
        f.append(2);
        ReadBuilder planned = table.copy(Map.of("scan.snapshot-id", "1")).newReadBuilder();
        List<? extends Split> splits = planned.newScan().plan().splits();

        // Only the latest snapshot stays: snapshot 1's files of partition d0 were replaced by the overwrite.
        ExpireConfig keepOne = new ExpireConfig(1, Integer.MAX_VALUE, Duration.ZERO, 100, false, null);
        assertThat(table.newSnapshotExpiration().expire(keepOne)).isEqualTo(2);

        assertThatThrownBy(() -> {
            try (RecordReader<InternalRow> reader = planned.newRead().createReader(splits)) {
                reader.forEachRemaining(row -> { });
            }
        }).isInstanceOf(FileNotFoundException.class)
                .hasMessageContaining("of table default.test: it no longer exists")
                .hasMessageContaining("'snapshot.time-retained'");
        assertThat(TestTables.readAll(table)).isEqualTo(f.expectedRows.get(3L));
    }
}
