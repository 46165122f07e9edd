package dev.streamhouse.storage.table;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.index.IndexManifestEntry;
import dev.streamhouse.storage.manifest.FileIdentifier;
import dev.streamhouse.storage.manifest.ManifestEntry;
import dev.streamhouse.storage.schema.Schema;
import dev.streamhouse.storage.snapshot.CommitKind;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.table.sink.BatchTableCommit;
import dev.streamhouse.storage.commit.CommitMessage;
import dev.streamhouse.storage.table.sink.TableWrite;
import dev.streamhouse.storage.testutils.FailingFileIO;
import dev.streamhouse.storage.testutils.TestTables;
import dev.streamhouse.storage.types.DataTypes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Overwrite commits (and two-part commits) whose file system fails at any single call, before or
 * after performing it: the table shows the old state or the complete new one, and retrying the
 * interrupted commit reaches the new state exactly once.
 */
class OverwriteFailureTest {
    private static final List<String> BEFORE = List.of("+I(d0, 0, 1)", "+I(d0, 1, 1)", "+I(d1, 0, 1)",
            "+I(d1, 1, 1)", "+I(d1, 2, 1)", "+I(d1, 3, 1)", "+I(d2, 0, 1)");
    private static final List<String> AFTER_OVERWRITE = List.of("+I(d0, 0, 1)", "+I(d0, 1, 1)", "+I(d1, 7, 2)",
            "+I(d1, 8, 2)", "+I(d2, 0, 1)");

    @TempDir
    java.nio.file.Path tmp;

    private final FailingFileIO io = FailingFileIO.wrap(LocalFileIO.INSTANCE);

    private Path root;
    private BatchTableCommit commit;
    private List<CommitMessage> messages;
    private boolean committed;
    private int attempt;

    @AfterEach
    void release() {
        io.release();
    }

    private static InternalRow pk(String dt, int id, long v) {
        return GenericRow.of(BinaryString.fromString(dt), id, v);
    }

    /** A dynamic-bucket table (two buckets in d1), so the overwrite also replaces index files. */
    private FileStoreTable setUp() throws Exception {
        root = new Path(tmp.resolve("t" + attempt++).toString());
        commit = null;
        messages = null;
        committed = false;
        FileStoreTable setup = TestTables.create(io.delegate(), root, Schema.newBuilder()
                .column("dt", DataTypes.STRING())
                .column("id", DataTypes.INT())
                .column("v", DataTypes.BIGINT())
                .partitionKeys("dt")
                .primaryKey("dt", "id")
                .option("dynamic-bucket.target-row-num", "2")
                .build());
        TestTables.write(setup, List.of(pk("d0", 0, 1), pk("d0", 1, 1), pk("d1", 0, 1), pk("d1", 1, 1),
                pk("d1", 2, 1), pk("d1", 3, 1), pk("d2", 0, 1)));
        return FileStoreTable.load(io, root, "default.test");
    }

    private void overwriteScenario() throws Exception {
        FileStoreTable table = setUp();
        try (TableWrite w = table.newOverwriteWrite()) {
            w.write(pk("d1", 7, 2));
            w.write(pk("d1", 8, 2));
            messages = w.prepareCommit();
        }
        commit = table.newBatchCommit();
        commit.overwrite(Map.of("dt", "d1"), messages);
        committed = true;
    }

    private void checkOverwriteAndFinish(int failedCall, Throwable thrown) throws Exception {
        FileStoreTable plain = FileStoreTable.load(io.delegate(), root, "default.test");
        List<String> visible = TestTables.readAll(plain);
        assertThat(visible).as("rows visible after call %s failed (%s)", failedCall, thrown)
                .satisfiesAnyOf(v -> assertThat(v).isEqualTo(BEFORE), v -> assertThat(v).isEqualTo(AFTER_OVERWRITE));
        if (!committed) {
            if (messages != null && commit != null) {
                commit.overwrite(Map.of("dt", "d1"), messages);
            } else {
                try (TableWrite w = plain.newOverwriteWrite(); BatchTableCommit c = plain.newBatchCommit()) {
                    w.write(pk("d1", 7, 2));
                    w.write(pk("d1", 8, 2));
                    c.overwrite(Map.of("dt", "d1"), w.prepareCommit());
                }
            }
        }
        plain = FileStoreTable.load(io.delegate(), root, "default.test");
        assertThat(TestTables.readAll(plain)).as("rows after finishing the work interrupted at call %s", failedCall)
                .isEqualTo(AFTER_OVERWRITE);
        assertThat(plain.latestSnapshot().orElseThrow().commitKind()).isEqualTo(CommitKind.OVERWRITE);
        // d1's two old hash index files are gone; one new one covers its two new keys.
        Snapshot latest = plain.latestSnapshot().orElseThrow();
        List<IndexManifestEntry> index = plain.indexManifestFile().read(latest.indexManifest());
        List<Long> d1 = new ArrayList<>();
        for (IndexManifestEntry e : index) {
            if (e.partition().stringAt(0).toString().equals("d1")) {
                d1.add(e.indexFile().rowCount());
            }
        }
        assertThat(d1).containsExactly(2L);
        assertUniqueLiveFiles(plain);
    }

    @Test
    void overwriteFailingBeforeAnyCallLeavesOldOrNewState() throws Exception {
        int points = io.failEachCallInTurn(this::overwriteScenario, this::checkOverwriteAndFinish);
        assertThat(points).isGreaterThan(20);
    }

    @Test
    void overwriteFailingAfterAnyCallLeavesOldOrNewState() throws Exception {
        int points = io.failEachCallInTurnAfterSuccess(this::overwriteScenario, this::checkOverwriteAndFinish);
        assertThat(points).isGreaterThan(20);
    }

    // ---- a commit of new files plus compaction (APPEND then COMPACT) ----

    private void twoPartScenario() throws Exception {
        FileStoreTable table = setUp();
        try (TableWrite w = table.newWrite()) {
            w.write(pk("d1", 9, 3));
            w.write(pk("d1", 0, 3));
            BinaryRow d1 = table.newReadBuilder().newScan().plan().splits().stream()
                    .filter(s -> s.partition().stringAt(0).toString().equals("d1")).findFirst().orElseThrow()
                    .partition();
            w.compact(d1, 0, true);
            messages = w.prepareCommit();
        }
        commit = table.newBatchCommit();
        commit.commit(messages);
        committed = true;
    }

    private void checkTwoPartsAndFinish(int failedCall, Throwable thrown) throws Exception {
        List<String> after = new ArrayList<>(BEFORE);
        after.set(after.indexOf("+I(d1, 0, 1)"), "+I(d1, 0, 3)");
        after.add("+I(d1, 9, 3)");
        after.sort(null);
        FileStoreTable plain = FileStoreTable.load(io.delegate(), root, "default.test");
        assertThat(TestTables.readAll(plain)).as("rows visible after call %s failed (%s)", failedCall, thrown)
                .satisfiesAnyOf(v -> assertThat(v).isEqualTo(BEFORE), v -> assertThat(v).isEqualTo(after));
        if (!committed) {
            if (messages != null && commit != null) {
                commit.commit(messages);
            } else {
                TestTables.write(plain, List.of(pk("d1", 9, 3), pk("d1", 0, 3)));
            }
        }
        plain = FileStoreTable.load(io.delegate(), root, "default.test");
        assertThat(TestTables.readAll(plain)).as("rows after finishing the work interrupted at call %s", failedCall)
                .isEqualTo(after);
        assertUniqueLiveFiles(plain);
        List<CommitKind> kinds = new ArrayList<>();
        for (long id = 2; id <= plain.latestSnapshot().orElseThrow().id(); id++) {
            kinds.add(plain.snapshotManager().snapshot(id).commitKind());
        }
        // Rewritten from scratch (the failure hit before the messages existed) there is no compaction.
        List<CommitKind> expected = messages == null || commit == null
                ? List.of(CommitKind.APPEND) : List.of(CommitKind.APPEND, CommitKind.COMPACT);
        assertThat(kinds).as("snapshots after the setup, failure at call %s", failedCall).isEqualTo(expected);
    }

    @Test
    void aTwoPartCommitRetriedAfterAFailureNeverPublishesAPartTwice() throws Exception {
        io.failEachCallInTurn(this::twoPartScenario, this::checkTwoPartsAndFinish);
        io.failEachCallInTurnAfterSuccess(this::twoPartScenario, this::checkTwoPartsAndFinish);
    }

    /** Every live file is added once and the snapshot's record count matches the live files. */
    private static void assertUniqueLiveFiles(FileStoreTable table) throws Exception {
        Snapshot latest = table.latestSnapshot().orElseThrow();
        List<ManifestEntry> live = table.snapshotEntries().liveEntries(latest, (Set<BinaryRow>) null);
        Set<FileIdentifier> ids = new HashSet<>();
        long rows = 0;
        for (ManifestEntry e : live) {
            assertThat(ids.add(e.identifier())).as("file %s is live once", e.file().fileName()).isTrue();
            rows += e.file().rowCount();
        }
        assertThat(latest.totalRecordCount()).isEqualTo(rows);
    }

}
