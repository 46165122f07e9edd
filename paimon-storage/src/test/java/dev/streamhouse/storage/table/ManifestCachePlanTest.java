package dev.streamhouse.storage.table;

import dev.streamhouse.storage.fs.LocalFileIO;
import dev.streamhouse.storage.fs.Path;
import dev.streamhouse.storage.manifest.ManifestCache;
import dev.streamhouse.storage.predicate.PredicateBuilder;
import dev.streamhouse.storage.testutils.TestTables;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Plans through a table's manifest cache read what the table holds: the same rows as a table without
 * the cache, after appends, an overwrite and a compaction of manifests, for the whole table and for one
 * partition; and a plan repeated without a commit in between reads no manifest from the file system.
 */
class ManifestCachePlanTest {
    @TempDir
    java.nio.file.Path tmp;

    @Test
    void plansThroughTheCacheSeeEveryCommitAndRepeatedPlansReadNoManifest() throws Exception {
        // manifest.merge-min-count 3: manifests are merged while the test commits, so cached manifests
        // are replaced by merged ones in later snapshots
        FileStoreTable plain = TestTables.create(LocalFileIO.INSTANCE, new Path(tmp.resolve("t").toString()),
                TestTables.simpleSchema("manifest.merge-min-count", "3"));
        ManifestCache cache = new ManifestCache(1 << 20, 64 << 20);
        FileStoreTable cached = plain.withManifestCache(cache);
        PredicateBuilder pb = new PredicateBuilder(plain.rowType());
        List<Long> misses = new ArrayList<>();
        for (int commit = 0; commit < 8; commit++) {
            TestTables.write(plain, TestTables.rows(commit * 10, 10, 3));
            if (commit == 5) {
                // rows of partition d1 deleted: an overwrite of that partition with nothing
                try (var write = plain.newOverwriteWrite(); var c = plain.newStreamCommit("overwriter")) {
                    c.overwrite(1, java.util.Map.of("dt", "d1"), write.prepareCommit());
                }
            }
            assertThat(TestTables.readAll(cached)).as("whole table after commit %d", commit)
                    .isEqualTo(TestTables.readAll(plain));
            for (String dt : List.of("d0", "d1", "d2")) {
                assertThat(TestTables.read(cached.newReadBuilder().withFilter(pb.equal(2, dt))))
                        .as("partition %s after commit %d", dt, commit)
                        .isEqualTo(TestTables.read(plain.newReadBuilder().withFilter(pb.equal(2, dt))));
            }
            misses.add(cache.hitsAndMisses()[1]);
            cached.newReadBuilder().newScan().plan();
            assertThat(cache.hitsAndMisses()[1]).as("manifests decoded by a repeated plan after commit %d", commit)
                    .isEqualTo(misses.get(misses.size() - 1));
        }
        assertThat(cache.hitsAndMisses()[0]).as("plans answered from the cache").isGreaterThan(8);
        // 80 rows written; the overwrite after commit 5 removed d1's rows of ids 0..59 (id % 3 == 1: 20)
        assertThat(TestTables.readAll(cached)).hasSize(60);
    }
}
