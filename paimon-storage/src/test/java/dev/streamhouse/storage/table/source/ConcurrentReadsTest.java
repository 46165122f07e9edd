package dev.streamhouse.storage.table.source;

import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.table.FileStoreTable;
import dev.streamhouse.storage.testutils.TestTables;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Splits read on several threads at once, as Flink's source readers of one TaskManager and a lookup
 * cache's loader threads do: every thread gets every row (file readers share nothing that one of them
 * releases while another uses it).
 */
class ConcurrentReadsTest {
    @TempDir
    java.nio.file.Path tmp;

    @Test
    void readersOnManyThreadsEachReadEveryRow() throws Exception {
        FileStoreTable table = TestTables.create(LocalFileIO.INSTANCE, new Path(tmp.resolve("t").toString()),
                TestTables.simpleSchema("file.compression", "zstd"));
        for (int commit = 0; commit < 40; commit++) {
            TestTables.write(table, TestTables.rows(commit * 50, 50, 4));
        }
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<List<String>>> reads = new ArrayList<>();
            for (int i = 0; i < 64; i++) {
                reads.add(pool.submit(() -> TestTables.readAll(table)));
            }
            List<String> expected = TestTables.readAll(table);
            assertThat(expected).hasSize(2000);
            for (Future<List<String>> read : reads) {
                assertThat(read.get()).isEqualTo(expected);
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
