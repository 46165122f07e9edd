package dev.streamhouse.storage.mergetree.compact;

import static dev.streamhouse.storage.mergetree.compact.LsmInvariants.assertFullyCompacted;
import static dev.streamhouse.storage.mergetree.compact.LsmInvariants.assertInvariants;
import static dev.streamhouse.storage.mergetree.compact.TestFiles.KEYS;
import static dev.streamhouse.storage.mergetree.compact.TestFiles.file;
import static dev.streamhouse.storage.mergetree.compact.TestFiles.withDeletes;
import static dev.streamhouse.storage.mergetree.compact.TestFiles.withSeq;
import static org.assertj.core.api.Assertions.assertThat;

import dev.streamhouse.storage.manifest.DataFileMeta;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * Many flushes of random level-0 files through a real manager (async executor, summing fake
 * rewriter), checking the LSM invariants after every step, with occasional full compactions and
 * restores from a shuffled file list.
 */
@Timeout(120)
class CompactionSimulationTest {

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
    void invariantsHoldUnderRandomFlushes(long seed) throws Exception {
        Random random = new Random(seed);
        int trigger = 2 + random.nextInt(5);
        int stop = trigger + random.nextInt(4);
        int numLevels = trigger + 1 + random.nextInt(2);
        long compactionFileSize = 50 + random.nextInt(300);
        int keySpace = random.nextBoolean() ? 1_000 : 20_000; // dense: mostly rewrites; sparse: upgrades too
        ExecutorService executor = Executors.newSingleThreadExecutor();
        RecordingRewriter rewriter = new RecordingRewriter();
        MergeTreeCompactManager manager = manager(executor, rewriter, List.of(), numLevels, trigger, stop,
                compactionFileSize);
        long rows = 0;
        long bytes = 0;
        try {
            for (int step = 1; step <= 400; step++) {
                long size = 1 + random.nextInt(300);
                int min = random.nextInt(keySpace);
                DataFileMeta f = withSeq(file("f" + step, 0, min, min + random.nextInt(400), size), step, step);
                if (random.nextInt(4) == 0) {
                    f = withDeletes(f, (long) random.nextInt((int) size));
                }
                rows += f.rowCount();
                bytes += f.fileSize();
                manager.addNewFile(f);
                manager.pollCompactionResult();
                manager.triggerCompaction();
                int waits = 0;
                while (manager.shouldWaitForLatestCompaction()) {
                    manager.awaitCompactionResult();
                    manager.triggerCompaction();
                    assertThat(++waits).as("writer stalls forever").isLessThan(100);
                }
                Levels levels = manager.levels();
                assertThat(levels.numberOfSortedRuns()).isLessThanOrEqualTo(stop);
                assertInvariants(levels, rows, bytes);

                if (step % 97 == 0) {
                    manager.awaitCompactionResult();
                    manager.triggerFullCompaction();
                    manager.awaitCompactionResult();
                    assertFullyCompacted(manager.levels(), rows, bytes);
                }
                if (step % 131 == 0) {
                    manager.awaitCompactionResult();
                    List<DataFileMeta> restored = new ArrayList<>(manager.allFiles());
                    Collections.shuffle(restored, random);
                    manager.close();
                    manager = manager(executor, rewriter, restored, numLevels, trigger, stop, compactionFileSize);
                    assertInvariants(manager.levels(), rows, bytes);
                }
            }
            manager.awaitCompactionResult();
            manager.triggerFullCompaction();
            manager.awaitCompactionResult();
            assertFullyCompacted(manager.levels(), rows, bytes);
            assertThat(rewriter.discarded).isEmpty();
            assertThat(rewriter.rewrites).isNotEmpty();
        } finally {
            manager.close();
            executor.shutdownNow();
            assertThat(executor.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }
    }

    private static MergeTreeCompactManager manager(ExecutorService executor, RecordingRewriter rewriter,
            List<DataFileMeta> files, int numLevels, int trigger, int stop, long compactionFileSize) {
        return new MergeTreeCompactManager(executor, new Levels(KEYS, files, numLevels),
                new UniversalCompaction(200, 1, trigger), KEYS, compactionFileSize, stop, rewriter);
    }
}
