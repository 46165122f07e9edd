package dev.streamhouse.storage.snapshot;

import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.FileNotFoundException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SnapshotManagerTest {
    @TempDir
    java.nio.file.Path tmp;

    private final LocalFileIO fileIO = LocalFileIO.INSTANCE;
    private Path tableRoot;
    private SnapshotManager manager;

    @BeforeEach
    void setUp() {
        tableRoot = new Path(tmp.toString() + "/default.db/t");
        manager = new SnapshotManager(fileIO, tableRoot);
    }

    private void commit(long... ids) throws Exception {
        for (long id : ids) {
            assertThat(manager.tryCommit(SnapshotSerializerTest.simple(id))).isTrue();
        }
    }

    @Test
    void emptyTableHasNoSnapshots() throws Exception {
        assertThat(manager.latestSnapshotId()).isNull();
        assertThat(manager.earliestSnapshotId()).isNull();
        assertThat(manager.latestSnapshot()).isEmpty();
        assertThat(manager.listSnapshotIds()).isEmpty();
        assertThatThrownBy(() -> manager.snapshot(1)).isInstanceOf(FileNotFoundException.class)
                .hasMessageContaining(manager.snapshotPath(1).toString()).hasMessageContaining("of table " + tableRoot);
    }

    @Test
    void commitWritesSnapshotThenLatestWithoutNewline() throws Exception {
        commit(1, 2, 3);
        assertThat(fileIO.readAllBytes(manager.latestHintPath())).isEqualTo("3".getBytes(StandardCharsets.US_ASCII));
        assertThat(manager.latestSnapshotId()).isEqualTo(3L);
        assertThat(manager.latestSnapshot()).contains(SnapshotSerializerTest.simple(3));
        assertThat(manager.snapshot(2)).isEqualTo(SnapshotSerializerTest.simple(2));
        assertThat(fileIO.readUtf8(manager.snapshotPath(3))).isEqualTo(SnapshotSerializer.toJson(SnapshotSerializerTest.simple(3)));
        assertThat(manager.earliestSnapshotId()).isEqualTo(1L);
        assertThat(fileIO.exists(manager.earliestHintPath())).isFalse();
    }

    @Test
    void tryCommitReturnsFalseWhenTheSnapshotExistsAndKeepsTheWinner() throws Exception {
        commit(1);
        Snapshot loser = new Snapshot(3, 1, 0, "other-base", null, "other-delta", null, null, null, null, "other", 1,
                CommitKind.APPEND, 1L, null, 0L, 0L, null, null, null, null, 0L);
        assertThat(manager.tryCommit(loser)).isFalse();
        assertThat(manager.snapshot(1)).isEqualTo(SnapshotSerializerTest.simple(1));
    }

    @Test
    void concurrentCommittersOfTheSameIdHaveExactlyOneWinner() throws Exception {
        commit(1);
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<Boolean>> results = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                Snapshot s = new Snapshot(3, 2, 0, "b" + i, null, "d" + i, null, null, null, null, "user-" + i, i,
                        CommitKind.APPEND, i, null, 0L, 0L, null, null, null, null, 0L);
                results.add(pool.submit((Callable<Boolean>) () -> manager.tryCommit(s)));
            }
            int winners = 0;
            for (Future<Boolean> f : results) {
                winners += f.get() ? 1 : 0;
            }
            assertThat(winners).isEqualTo(1);
        } finally {
            pool.shutdownNow();
        }
        assertThat(manager.latestSnapshotId()).isEqualTo(2L);
    }

    @Test
    void rejectsHolesAndNonPositiveIds() throws Exception {
        assertThatThrownBy(() -> manager.tryCommit(SnapshotSerializerTest.simple(0)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("start at 1");
        assertThatThrownBy(() -> manager.tryCommit(SnapshotSerializerTest.simple(2)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("snapshot-1 does not exist");
        assertThat(manager.snapshotExists(2)).isFalse();
    }

    @Test
    void staleLatestHintFallsBackToListing() throws Exception {
        commit(1, 2, 3);
        manager.commitLatestHint(1);
        assertThat(manager.latestSnapshotId()).isEqualTo(3L);
    }

    @Test
    void latestHintIsTrustedWhenTheNextSnapshotDoesNotExist() throws Exception {
        commit(1, 2, 3);
        manager.commitLatestHint(2);
        // snapshot-3 exists, so hint 2 is stale; hint 3 is trusted without listing
        assertThat(manager.latestSnapshotId()).isEqualTo(3L);
        manager.commitLatestHint(3);
        fileIO.overwrite(new Path(manager.snapshotDirectory(), "snapshot-9"), new byte[] {'x'});
        assertThat(manager.latestSnapshotId()).isEqualTo(3L);
    }

    @Test
    void latestHintNamingAMissingSnapshotFallsBackToListing() throws Exception {
        commit(1, 2, 3);
        // e.g. "7" written over "31" by an interleaved non-atomic overwrite
        manager.commitLatestHint(71);
        assertThat(manager.latestSnapshotId()).isEqualTo(3L);
        assertThat(manager.latestSnapshot().orElseThrow().id()).isEqualTo(3L);
    }

    @Test
    void missingOrGarbageLatestHintFallsBackToListing() throws Exception {
        commit(1, 2);
        fileIO.delete(manager.latestHintPath(), false);
        assertThat(manager.latestSnapshotId()).isEqualTo(2L);
        fileIO.overwrite(manager.latestHintPath(), "not-a-number".getBytes(StandardCharsets.UTF_8));
        assertThat(manager.latestSnapshotId()).isEqualTo(2L);
        fileIO.overwrite(manager.latestHintPath(), new byte[0]);
        assertThat(manager.latestSnapshotId()).isEqualTo(2L);
        fileIO.overwrite(manager.latestHintPath(), "2\n".getBytes(StandardCharsets.UTF_8));
        assertThat(manager.latestSnapshotId()).isEqualTo(2L);
    }

    @Test
    void earliestHintPointingToADeletedSnapshotFallsBackToListing() throws Exception {
        commit(1, 2, 3, 4);
        manager.commitEarliestHint(2);
        assertThat(fileIO.readAllBytes(manager.earliestHintPath())).isEqualTo(new byte[] {'2'});
        assertThat(manager.earliestSnapshotId()).isEqualTo(2L);
        fileIO.delete(manager.snapshotPath(1), false);
        fileIO.delete(manager.snapshotPath(2), false);
        assertThat(manager.earliestSnapshotId()).isEqualTo(3L);
        assertThat(manager.earliestSnapshot()).contains(SnapshotSerializerTest.simple(3));
    }

    @Test
    void listingIgnoresHintsTempAndForeignFiles() throws Exception {
        commit(1, 2);
        manager.commitEarliestHint(1);
        fileIO.overwrite(new Path(manager.snapshotDirectory(), ".snapshot-3.uuid.tmp"), new byte[] {1});
        fileIO.overwrite(new Path(manager.snapshotDirectory(), "snapshot-"), new byte[] {1});
        fileIO.overwrite(new Path(manager.snapshotDirectory(), "snapshot-x1"), new byte[] {1});
        assertThat(manager.listSnapshotIds()).containsExactly(1L, 2L);
        fileIO.delete(manager.latestHintPath(), false);
        assertThat(manager.latestSnapshotId()).isEqualTo(2L);
    }

    @Test
    void failedLatestHintDoesNotFailTheCommit() throws Exception {
        SnapshotManager flaky = new SnapshotManager(new FlakyHintFileIO(fileIO), tableRoot);
        assertThat(flaky.tryCommit(SnapshotSerializerTest.simple(1))).isTrue();
        assertThat(fileIO.exists(manager.latestHintPath())).isFalse();
        assertThat(flaky.latestSnapshotId()).isEqualTo(1L);
    }

    @Test
    void iteratesRangesInBothDirections() throws Exception {
        commit(1, 2, 3, 4, 5);
        List<Long> up = new ArrayList<>();
        manager.snapshotsAscending(2, 4).forEachRemaining(s -> up.add(s.id()));
        assertThat(up).containsExactly(2L, 3L, 4L);
        List<Long> down = new ArrayList<>();
        manager.snapshotsDescending(2, 4).forEachRemaining(s -> down.add(s.id()));
        assertThat(down).containsExactly(4L, 3L, 2L);
        assertThat(manager.snapshotsAscending(4, 3).hasNext()).isFalse();

        fileIO.delete(manager.snapshotPath(3), false);
        Iterator<Snapshot> it = manager.snapshotsAscending(2, 4);
        assertThat(it.next().id()).isEqualTo(2L);
        assertThatThrownBy(it::next).isInstanceOf(UncheckedIOException.class)
                .hasCauseInstanceOf(FileNotFoundException.class);
    }

    @Test
    void truncatedSnapshotNamesFileAndTableAndIsNotDeleted() throws Exception {
        commit(1, 2);
        byte[] full = fileIO.readAllBytes(manager.snapshotPath(2));
        byte[] truncated = java.util.Arrays.copyOf(full, full.length / 2);
        fileIO.overwrite(manager.snapshotPath(2), truncated);
        assertThatThrownBy(() -> manager.latestSnapshot())
                .isInstanceOf(CorruptSnapshotException.class)
                .hasMessageContaining("snapshot file " + manager.snapshotPath(2))
                .hasMessageContaining("of table " + tableRoot);
        assertThat(fileIO.readAllBytes(manager.snapshotPath(2))).isEqualTo(truncated);
        assertThat(manager.latestSnapshotId()).isEqualTo(2L);
    }

    @Test
    void snapshotWhoseIdDoesNotMatchItsFileIsCorrupt() throws Exception {
        commit(1);
        fileIO.overwrite(manager.snapshotPath(2), SnapshotSerializer.toJson(SnapshotSerializerTest.simple(1))
                .getBytes(StandardCharsets.UTF_8));
        assertThatThrownBy(() -> manager.snapshot(2)).isInstanceOf(CorruptSnapshotException.class)
                .hasMessageContaining("holds snapshot id 1");
    }
}
