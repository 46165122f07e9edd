package dev.streamhouse.storage.maintenance.expire;

import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.testutils.FailingFileIO;
import dev.streamhouse.storage.testutils.FileOperation;
import dev.streamhouse.storage.testutils.InjectedIOException;
import dev.streamhouse.storage.testutils.TestTables;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Failure injection: the n-th delete of an expiration fails, for every n. Afterwards no retained
 * snapshot lost a file, and the next expiration finishes the job (no file left that nothing needs).
 * Also: a failing expiration never fails the commit that ran it.
 */
class ExpirationFailureTest {
    @TempDir
    java.nio.file.Path tmp;

    private final FailingFileIO io = FailingFileIO.wrap(LocalFileIO.INSTANCE);

    @AfterEach
    void release() {
        io.release();
    }

    private static final ExpireConfig KEEP_TWO = new ExpireConfig(2, Integer.MAX_VALUE, Duration.ZERO, 100, false, null);

    private ExpirationFixture sixSnapshots(String dir) throws Exception {
        ExpirationFixture f = new ExpirationFixture(TestTables.create(LocalFileIO.INSTANCE,
                new Path(tmp.resolve(dir).toString()), TestTables.simpleSchema("write-only", "true")));
        f.append(4);
        f.append(4);
        f.overwriteD0(2);
        f.append(4);
        f.overwriteD0(3);
        f.append(2);
        return f;
    }

    @Test
    void theNthDeleteFailsForEveryNThenTheNextRunFinishes() throws Exception {
        int points = 0;
        for (int n = 1; ; n++) {
            ExpirationFixture f = sixSnapshots("t" + n);
            FileStoreTable failing = FileStoreTable.load(io, f.table.location(), "default.test");
            AtomicInteger deletes = new AtomicInteger();
            int failAt = n;
            io.armMatching(p -> deletes.incrementAndGet() == failAt, FileOperation.DELETE);
            int expired;
            try {
                expired = failing.newSnapshotExpiration().expire(KEEP_TWO);
            } catch (IOException e) {
                assertThat(e).hasRootCauseInstanceOf(InjectedIOException.class)
                        .hasMessageContaining("the next expiration finishes the job");
                io.disarm();
                // Snapshots 5 and 6 are retained whatever happened.
                f.assertRetainedSnapshotsRead(5);
                failing.newSnapshotExpiration().expire(KEEP_TWO);
                assertThat(f.snapshotIds()).as("after failing delete %s", n).containsExactly(5L, 6L);
                f.assertRetainedSnapshotsRead(5);
                f.assertFilesOnDiskAreExactlyReferenced(List.of());
                points++;
                continue;
            } finally {
                io.disarm();
            }
            // Fewer than n deletes: the run completed untouched.
            assertThat(expired).isEqualTo(4);
            assertThat(f.snapshotIds()).containsExactly(5L, 6L);
            f.assertFilesOnDiskAreExactlyReferenced(List.of());
            break;
        }
        // Every data file, manifest, manifest list and snapshot file of the run was a failure point.
        assertThat(points).isGreaterThan(10);
    }

    @Test
    void aFailingExpirationDoesNotFailTheCommitAndTheNextCommitFinishesIt() throws Exception {
        Path root = new Path(tmp.resolve("t").toString());
        TestTables.create(LocalFileIO.INSTANCE, root, TestTables.simpleSchema("snapshot.num-retained.min", "1",
                "snapshot.num-retained.max", "2"));
        ExpirationFixture f = new ExpirationFixture(FileStoreTable.load(io, root, "default.test"));
        f.append(3);
        f.append(3);
        f.overwriteD0(2);
        assertThat(f.snapshotIds()).containsExactly(2L, 3L);
        // From now on every delete fails: the commits still succeed, their expirations do not.
        io.armMatching(p -> true, FileOperation.DELETE);
        f.append(3);
        f.overwriteD0(1);
        io.disarm();
        assertThat(f.snapshotIds()).containsExactly(2L, 3L, 4L, 5L);
        f.assertRetainedSnapshotsRead(4);

        f.append(1);
        assertThat(f.snapshotIds()).containsExactly(5L, 6L);
        f.assertRetainedSnapshotsRead(5);
        f.assertFilesOnDiskAreExactlyReferenced(List.of());
    }

    @Test
    void asyncExpirationRunsBesideTheCommitAndCloseWaitsForIt() throws Exception {
        ExpirationFixture f = new ExpirationFixture(TestTables.create(LocalFileIO.INSTANCE,
                new Path(tmp.resolve("t").toString()), TestTables.simpleSchema("snapshot.num-retained.min", "1",
                        "snapshot.num-retained.max", "1", "snapshot.expire.execution-mode", "async")));
        for (int i = 0; i < 5; i++) {
            f.append(2);
        }
        // Each batch commit closes its TableCommit, which waits for its expiration.
        assertThat(f.snapshotIds()).containsExactly(5L);
        f.assertRetainedSnapshotsRead(5);
        f.assertFilesOnDiskAreExactlyReferenced(List.of());
    }

    @Test
    void anUnreadableTagStopsExpirationBeforeAnythingIsDeleted() throws Exception {
        ExpirationFixture f = sixSnapshots("t");
        f.table.fileIO().overwrite(new Path(f.table.location(), "tag/tag-broken"), "{ not json".getBytes());
        java.util.Set<String> before = f.filesOnDisk();
        assertThatThrownBy(() -> f.table.newSnapshotExpiration().expire(KEEP_TWO))
                .isInstanceOf(IOException.class).hasMessageContaining("tag-broken");
        assertThat(f.filesOnDisk()).isEqualTo(before);
        assertThat(f.snapshotIds()).hasSize(6);
    }
}
