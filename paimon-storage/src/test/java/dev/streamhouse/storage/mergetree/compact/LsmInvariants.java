package dev.streamhouse.storage.mergetree.compact;

import static dev.streamhouse.storage.mergetree.compact.TestFiles.KEYS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.mergetree.LevelSortedRun;

import java.util.List;

/** The LSM invariants the compaction tests check after every step. */
final class LsmInvariants {
    private LsmInvariants() {}

    /**
     * Rows and bytes conserved, every file within its own key range and on a valid level, each run's
     * files disjoint, and runs newest first (every record of a run newer than all of older runs).
     */
    static void assertInvariants(Levels levels, long rows, long bytes) {
        long liveRows = 0;
        long liveBytes = 0;
        for (DataFileMeta f : levels.allFiles()) {
            liveRows += f.rowCount();
            liveBytes += f.fileSize();
            assertThat(f.level()).isBetween(0, levels.maxLevel());
            assertThat(KEYS.compare(f.minKey(), f.maxKey())).as("key range of %s", f.fileName()).isNotPositive();
        }
        assertThat(liveRows).as("rows conserved").isEqualTo(rows);
        assertThat(liveBytes).as("bytes conserved").isEqualTo(bytes);
        List<LevelSortedRun> runs = levels.levelSortedRuns();
        for (LevelSortedRun run : runs) {
            List<DataFileMeta> files = run.run().files();
            for (int i = 1; i < files.size(); i++) {
                assertThat(KEYS.compare(files.get(i - 1).maxKey(), files.get(i).minKey()))
                        .as("level %s disjoint", run.level()).isNegative();
            }
        }
        for (int i = 1; i < runs.size(); i++) {
            assertThat(minSeq(runs.get(i - 1))).as("run %s newer than run %s", i - 1, i)
                    .isGreaterThan(maxSeq(runs.get(i)));
        }
    }

    /** The invariants, and one run on the max level without retractions. */
    static void assertFullyCompacted(Levels levels, long rows, long bytes) {
        assertInvariants(levels, rows, bytes);
        assertThat(levels.numberOfSortedRuns()).isEqualTo(1);
        for (DataFileMeta f : levels.allFiles()) {
            assertThat(f.level()).isEqualTo(levels.maxLevel());
            assertThat(f.deleteRowCount()).as("deletes dropped on the max level").isZero();
        }
    }

    private static long minSeq(LevelSortedRun run) {
        return run.run().files().stream().mapToLong(DataFileMeta::minSequenceNumber).min().orElseThrow();
    }

    private static long maxSeq(LevelSortedRun run) {
        return run.run().files().stream().mapToLong(DataFileMeta::maxSequenceNumber).max().orElseThrow();
    }

}
