package dev.streamhouse.storage.maintenance.expire;

import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.maintenance.orphan.TableOrphanFiles;
import dev.streamhouse.storage.maintenance.rollback.TableRollback;
import dev.streamhouse.storage.maintenance.tag.TableTags;
import dev.streamhouse.storage.snapshot.ChangelogManager;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.testutils.FailingFileIO;
import dev.streamhouse.storage.testutils.FileOperation;
import dev.streamhouse.storage.testutils.InjectedIOException;
import dev.streamhouse.storage.testutils.TableFileOracle;
import dev.streamhouse.storage.testutils.TestTables;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Failure injection into rollbacks and tag deletions: the n-th file-system call fails, for every n
 * (not performed, or performed and then reported failed). Afterwards every snapshot and tag still on
 * disk reads its rows; if the operation failed, running it again leaves exactly the files the
 * remaining metadata needs; if it reported success (the failure hit the file cleanup after the point of
 * no return), running it again and {@code remove_orphan_files} do.
 */
class RollbackFailureTest {
    @TempDir
    java.nio.file.Path tmp;

    private final FailingFileIO io = FailingFileIO.wrap(LocalFileIO.INSTANCE);
    private HistoryFixture template;
    private int attempt;

    /**
     * Snapshots 1 (tag "one"), 2 (a full compaction upgrading 1's file), 3, 4 (tag "four"), 5 (a full
     * compaction), 6; snapshots 1 to 3 expired, their changelog kept in {@code changelog/}.
     */
    @BeforeEach
    void history() throws Exception {
        template = new HistoryFixture(TestTables.create(LocalFileIO.INSTANCE,
                new Path(tmp.resolve("template").toString()), HistoryFixture.pkSchema("changelog-producer", "input",
                        "snapshot.num-retained.min", "1", "snapshot.num-retained.max", "3",
                        "changelog.num-retained.max", "20")));
        template.upsert(0, 6, "a");
        TableTags.of(template.table).create("one", 1L, null);
        template.compact(true);
        assertThat(template.upgrades(2)).isTrue();
        template.upsert(3, 8, "b");
        template.upsert(10, 12, "c");
        TableTags.of(template.table).create("four", 4L, null);
        template.compact(true);
        template.upsert(0, 2, "d");
        assertThat(template.retainedSnapshots()).containsExactly(4L, 5L, 6L);
        assertThat(new ChangelogManager(LocalFileIO.INSTANCE, template.table.location()).listChangelogIds())
                .containsExactly(1L, 2L, 3L);
        template.assertFilesExactlyNeeded("in the template");
    }

    @AfterEach
    void release() {
        io.release();
    }

    /** A fresh copy of the template (same modification times), and the model over it. */
    private HistoryFixture copy() throws Exception {
        java.nio.file.Path from = tmp.resolve("template");
        java.nio.file.Path to = tmp.resolve("attempt-" + attempt++);
        try (var files = Files.walk(from)) {
            for (java.nio.file.Path p : (Iterable<java.nio.file.Path>) files::iterator) {
                Files.copy(p, to.resolve(from.relativize(p).toString()), StandardCopyOption.COPY_ATTRIBUTES);
            }
        }
        return template.on(FileStoreTable.load(LocalFileIO.INSTANCE, new Path(to.toString()), "default.test"));
    }

    private static FileStoreTable through(FailingFileIO io, FileStoreTable table) {
        return new FileStoreTable(io, table.location(), table.fullName(), table.schema());
    }

    /**
     * Runs {@code operation} on a fresh copy with each call failing in turn; after each failure checks
     * the copy, runs the operation again without failures, and checks that exactly the needed files are
     * left (after orphan cleanup if the failing run reported success).
     */
    private int failEachCall(boolean performed, Consumer<FileStoreTable> operation,
            Consumer<HistoryFixture> afterOperation) throws Exception {
        HistoryFixture[] current = new HistoryFixture[1];
        FailingFileIO.Scenario scenario = () -> {
            current[0] = copy();
            operation.accept(through(io, current[0].table));
        };
        FailingFileIO.FailureCheck check = (call, thrown) -> {
            HistoryFixture h = current[0];
            String when = "after call " + call + " failed" + (thrown == null ? " (reported success)" : "");
            h.assertEverythingReads(when);
            operation.accept(h.table);
            afterOperation.accept(h);
            h.assertEverythingReads(when + " and a second run");
            if (thrown == null) {
                // A file the cleanup could not delete is left to remove_orphan_files, which also keeps
                // what changelog entries name without needing it (their base and delta manifest lists).
                TableOrphanFiles.of(h.table).clean(System.currentTimeMillis() - 1, false);
                Set<String> onDisk = TableFileOracle.filesOnDisk(h.table);
                Set<String> needed = TableFileOracle.neededFiles(h.table);
                assertThat(onDisk).as("files on disk " + when).containsAll(needed);
                onDisk.removeAll(needed);
                assertThat(TableFileOracle.namedByChangelogEntries(h.table)).as("files left " + when)
                        .containsAll(onDisk);
            } else {
                h.assertFilesExactlyNeeded(when + " and a second run");
            }
        };
        int points = performed ? io.failEachCallInTurnAfterSuccess(scenario, check)
                : io.failEachCallInTurn(scenario, check);
        // The run that reached no failure point left the right state at once.
        afterOperation.accept(current[0]);
        current[0].assertEverythingReads("after a run without failure");
        current[0].assertFilesExactlyNeeded("after a run without failure");
        return points;
    }

    @Test
    void rollbackToARetainedSnapshot() throws Exception {
        int points = failEachCall(false, t -> TableRollback.of(t).toSnapshot(4), h -> h.rolledBackTo(4));
        assertThat(points).isGreaterThan(20);
    }

    @Test
    void rollbackToATagWhoseSnapshotExpired() throws Exception {
        int points = failEachCall(false, t -> TableRollback.of(t).toTag("one"), h -> h.rolledBackTo(1));
        assertThat(points).isGreaterThan(30);
    }

    @Test
    void rollbackToATagWithOutcomeUnknownFailures() throws Exception {
        failEachCall(true, t -> TableRollback.of(t).toTag("one"), h -> h.rolledBackTo(1));
    }

    @Test
    void deleteTwoTags() throws Exception {
        int points = failEachCall(false, t -> TableTags.of(t).delete(List.of("one", "four")), h -> { });
        assertThat(points).isGreaterThan(10);
    }

    @Test
    void aFailedDeleteOfMetadataIsFinishedByTheNextRunAloneAndOfAFileByOrphanCleanup() throws Exception {
        for (int n = 1; ; n++) {
            HistoryFixture h = copy();
            Set<String> before = TableFileOracle.filesOnDisk(h.table);
            AtomicInteger deletes = new AtomicInteger();
            int failAt = n;
            io.armMatching(p -> deletes.incrementAndGet() == failAt, FileOperation.DELETE);
            Throwable thrown = null;
            try {
                TableRollback.of(through(io, h.table)).toTag("one");
            } catch (RuntimeException e) {
                thrown = e;
            } finally {
                io.disarm();
            }
            if (deletes.get() < n) {
                assertThat(thrown).isNull();
                break;
            }
            h.rolledBackTo(1);
            if (thrown != null) {
                // a snapshot, changelog entry or tag file could not be deleted: the rollback failed
                assertThat(thrown).hasRootCauseInstanceOf(InjectedIOException.class)
                        .hasMessageContaining("run the rollback again");
                TableRollback.of(h.table).toTag("one");
                h.assertFilesExactlyNeeded("after the failed delete " + n + " and a second run");
            } else {
                // a data or metadata file could not be deleted: the rollback happened, that file is left
                Set<String> left = TableFileOracle.filesOnDisk(h.table);
                left.removeAll(TableFileOracle.neededFiles(h.table));
                assertThat(left).as("left after failed delete %s", n).hasSize(1);
                assertThat(before).containsAll(left);
                TableOrphanFiles.of(h.table).clean(System.currentTimeMillis() - 1, false);
                h.assertFilesExactlyNeeded("after the failed delete " + n + " and orphan cleanup");
            }
            h.assertEverythingReads("after the failed delete " + n);
        }
    }
}
