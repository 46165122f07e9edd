package dev.streamhouse.storage.operation;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.manifest.ManifestEntry;
import dev.streamhouse.storage.mergetree.KeyComparator;
import dev.streamhouse.storage.mergetree.KeyValueLayout;
import dev.streamhouse.storage.mergetree.compact.Levels;
import dev.streamhouse.storage.schema.Schema;
import dev.streamhouse.storage.snapshot.CommitKind;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.commit.CommitMessage;
import dev.streamhouse.storage.table.sink.TableWrite;
import dev.streamhouse.storage.testutils.TestTables;
import dev.streamhouse.storage.types.DataTypes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Two writers (two jobs, two commit users) compacting the same bucket of a primary-key table: the
 * second compaction that cannot be applied to the table as it is now is refused with a conflict that
 * names the table, partition and bucket, and the table stays a valid LSM tree.
 */
class CompactionConflictTest {
    @TempDir
    java.nio.file.Path tmp;

    private FileStoreTable table(boolean partitioned) throws Exception {
        Schema.Builder b = Schema.newBuilder()
                .column("k", DataTypes.INT().notNull())
                .column("v", DataTypes.STRING())
                .column("dt", DataTypes.STRING().notNull())
                .primaryKey("k", "dt")
                .option("bucket", "1");
        if (partitioned) {
            b.partitionKeys("dt");
        }
        return TestTables.create(LocalFileIO.INSTANCE, new Path(tmp.resolve("t").toString()), b.build());
    }

    private static void write(TableWrite w, int from, int to, String value) throws Exception {
        for (int k = from; k < to; k++) {
            w.write(GenericRow.of(k, BinaryString.fromString(value), BinaryString.fromString("a")));
        }
    }

    private static BinaryRow partitionOf(List<CommitMessage> messages) {
        return messages.get(0).partition();
    }

    /** Every snapshot's live files form valid LSM levels in every bucket. */
    private static void assertLevelsValid(FileStoreTable table) throws Exception {
        KeyComparator keys = new KeyComparator(KeyValueLayout.of(table.schema()).keyType());
        Snapshot latest = table.latestSnapshot().orElseThrow();
        for (long id = 1; id <= latest.id(); id++) {
            List<DataFileMeta> files = new ArrayList<>();
            for (ManifestEntry e : table.snapshotEntries().liveEntries(table.snapshotManager().snapshot(id),
                    (java.util.Set<BinaryRow>) null)) {
                files.add(e.file());
            }
            new Levels(keys, files, 2);
        }
    }

    @Test
    void compactionsOfTwoWritersThatWouldOverlapOnALevelConflict() throws Exception {
        FileStoreTable table = table(true);
        try (TableWrite a = table.newWrite(); TableWrite b = table.newWrite()) {
            // Both writers start on the empty table, so neither ever sees the other's files.
            write(a, 0, 10, "a");
            write(b, 5, 15, "b");
            List<CommitMessage> fromA = a.prepareCommit();
            table.newStreamCommit("job-a").commit(1, fromA);
            table.newStreamCommit("job-b").commit(1, b.prepareCommit());

            a.compact(partitionOf(fromA), 0, true);
            table.newStreamCommit("job-a").commit(2, a.prepareCommit());
            b.compact(partitionOf(fromA), 0, true);
            List<CommitMessage> compactB = b.prepareCommit();
            assertThat(compactB.get(0).compactIncrement().compactAfter()).as("b compacted to an upper level")
                    .allMatch(f -> f.level() > 0);

            assertThatThrownBy(() -> table.newStreamCommit("job-b").commit(2, compactB))
                    .isInstanceOf(CommitConflictException.class)
                    .hasMessageContaining("Cannot commit to table " + table.fullName())
                    .hasMessageContaining("overlap in key range on level")
                    .hasMessageContaining("partition {dt=a}, bucket 0")
                    .hasMessageContaining("(this commit)")
                    .hasMessageContaining("the latest snapshot 3 was committed by commit user job-a, this commit's is"
                            + " job-b")
                    .hasMessageContaining("loses no committed data")
                    .hasMessageContaining("set 'write-only' = 'true' for all writers but one");
        }
        assertThat(table.latestSnapshot().orElseThrow().commitKind()).isEqualTo(CommitKind.COMPACT);
        assertThat(table.latestSnapshot().orElseThrow().commitUser()).isEqualTo("job-a");
        assertLevelsValid(table);
        // Keys both wrote hold one of the two values; no key is lost or doubled.
        List<String> rows = TestTables.readAll(table);
        assertThat(rows).hasSize(15);
        for (int k = 0; k < 15; k++) {
            String onlyA = "+I(" + k + ", a, a)";
            String onlyB = "+I(" + k + ", b, a)";
            if (k < 5) {
                assertThat(rows).contains(onlyA);
            } else if (k >= 10) {
                assertThat(rows).contains(onlyB);
            } else {
                assertThat(rows).containsAnyOf(onlyA, onlyB);
            }
        }
    }

    @Test
    void compactionOfFilesAnotherWriterAlreadyCompactedConflicts() throws Exception {
        FileStoreTable table = table(false);
        List<CommitMessage> written;
        try (TableWrite w = table.newWrite()) {
            write(w, 0, 10, "a");
            written = w.prepareCommit();
            table.newStreamCommit("job-0").commit(1, written);
            write(w, 5, 15, "b");
            table.newStreamCommit("job-0").commit(2, w.prepareCommit());
        }
        try (TableWrite a = table.newWrite(); TableWrite b = table.newWrite()) {
            // Both load the bucket as it is now and compact the same two files.
            a.compact(partitionOf(written), 0, true);
            b.compact(partitionOf(written), 0, true);
            table.newStreamCommit("job-a").commit(1, a.prepareCommit());
            List<CommitMessage> compactB = b.prepareCommit();
            assertThatThrownBy(() -> table.newStreamCommit("job-b").commit(1, compactB))
                    .isInstanceOf(CommitConflictException.class)
                    .hasMessageContaining("Cannot commit to table " + table.fullName())
                    .hasMessageContaining("is no longer live")
                    .hasMessageContaining("(bucket 0, level 0)")
                    .hasMessageContaining("the latest snapshot 3 was committed by commit user job-a")
                    .hasMessageContaining("set 'write-only' = 'true' for all writers but one");
        }
        assertLevelsValid(table);
        assertThat(TestTables.readAll(table)).hasSize(15);
    }

    @Test
    void aWriterCompactingItsOwnBucketAlone() throws Exception {
        FileStoreTable table = table(true);
        try (TableWrite w = table.newWrite()) {
            for (int round = 0; round < 4; round++) {
                write(w, round * 3, round * 3 + 10, "r" + round);
                List<CommitMessage> messages = w.prepareCommit();
                w.compact(partitionOf(messages), 0, round % 2 == 1);
                table.newStreamCommit("job").commit(round, messages);
                table.newStreamCommit("job").commit(100 + round, w.prepareCommit());
            }
        }
        assertLevelsValid(table);
        assertThat(TestTables.readAll(table)).hasSize(19);
    }
}
