package dev.streamhouse.storage.table;

import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.manifest.ManifestFileMeta;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.testutils.TestTables;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;

/** Committers racing on one append table all succeed, and every row is there exactly once. */
class ConcurrentCommitTest {
    @TempDir
    java.nio.file.Path tmp;

    @Test
    void racingCommittersAllLandExactlyOnce() throws Exception {
        Path root = new Path(tmp.resolve("t").toString());
        TestTables.create(LocalFileIO.INSTANCE, root, TestTables.simpleSchema("commit.min-retry-wait", "1 ms",
                "commit.max-retry-wait", "20 ms", "commit.max-retries", "100"));
        int committers = 4;
        int commitsEach = 8;
        ExecutorService pool = Executors.newFixedThreadPool(committers);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> futures = new ArrayList<>();
        List<InternalRow> expected = new ArrayList<>();
        for (int c = 0; c < committers; c++) {
            int committer = c;
            for (int i = 0; i < commitsEach; i++) {
                expected.addAll(TestTables.rows((committer * commitsEach + i) * 10, 10, 3));
            }
            futures.add(pool.submit(() -> {
                // Each committer loads its own table object, as separate jobs would.
                FileStoreTable table = FileStoreTable.load(LocalFileIO.INSTANCE, root, "default.test");
                start.await();
                for (int i = 0; i < commitsEach; i++) {
                    TestTables.write(table, TestTables.rows((committer * commitsEach + i) * 10, 10, 3));
                }
                return null;
            }));
        }
        start.countDown();
        for (Future<?> f : futures) {
            f.get();
        }
        pool.shutdown();

        FileStoreTable table = FileStoreTable.load(LocalFileIO.INSTANCE, root, "default.test");
        assertThat(TestTables.readAll(table)).isEqualTo(TestTables.show(expected));
        Snapshot latest = table.latestSnapshot().orElseThrow();
        assertThat(latest.id()).isEqualTo(committers * commitsEach);
        assertThat(latest.totalRecordCount()).isEqualTo(expected.size());

        // Losers cleaned up after themselves: every manifest file on disk is used by some snapshot.
        Set<String> referenced = new HashSet<>();
        for (long id = 1; id <= latest.id(); id++) {
            Snapshot s = table.snapshotManager().snapshot(id);
            referenced.add(s.baseManifestList());
            referenced.add(s.deltaManifestList());
            for (ManifestFileMeta m : table.snapshotEntries().dataManifests(s)) {
                referenced.add(m.fileName());
            }
        }
        try (var files = java.nio.file.Files.list(tmp.resolve("t/manifest"))) {
            assertThat(files.map(p -> p.getFileName().toString())).allMatch(referenced::contains);
        }
    }
}
