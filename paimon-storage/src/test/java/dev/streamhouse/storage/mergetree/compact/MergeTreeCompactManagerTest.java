package dev.streamhouse.storage.mergetree.compact;

import static dev.streamhouse.storage.mergetree.compact.TestFiles.KEYS;
import static dev.streamhouse.storage.mergetree.compact.TestFiles.file;
import static dev.streamhouse.storage.mergetree.compact.TestFiles.names;
import static dev.streamhouse.storage.mergetree.compact.TestFiles.withSeq;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.streamhouse.storage.manifest.DataFileMeta;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

@Timeout(60)
class MergeTreeCompactManagerTest {
    private static final int TRIGGER = 3;
    private static final int STOP = 5;

    private final ExecutorService executor = Executors.newSingleThreadExecutor(r -> new Thread(r, "compactor"));
    private final RecordingRewriter rewriter = new RecordingRewriter();
    private final MergeTreeCompactManager manager = new MergeTreeCompactManager(executor,
            new Levels(KEYS, List.of(), 4), new UniversalCompaction(200, 1, TRIGGER), KEYS, 100, STOP, rewriter);
    private int flushes;

    @AfterEach
    void shutDown() throws InterruptedException {
        manager.close();
        executor.shutdownNow();
        assertThat(executor.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
    }

    /** Adds level-0 files that all overlap (so compaction must rewrite), equal sizes. */
    private void flush(int count) {
        for (int i = 0; i < count; i++) {
            flushes++;
            manager.addNewFile(withSeq(file("f" + flushes, 0, 0, 100, 10), flushes, flushes));
        }
    }

    @Test
    void nothingBelowTheTrigger() throws Exception {
        flush(TRIGGER - 1);
        manager.triggerCompaction();
        assertThat(manager.compactNotCompleted()).isFalse();
        assertThat(manager.awaitCompactionResult()).isEmpty();
        assertThat(manager.pollCompactionResult()).isEmpty();
    }

    @Test
    void compactionRunsOffTheWriterThreadAndIsAppliedOnce() throws Exception {
        rewriter.gate = new CountDownLatch(1);
        flush(TRIGGER);
        manager.triggerCompaction();
        assertThat(rewriter.started.await(10, TimeUnit.SECONDS)).isTrue();

        assertThat(manager.compactNotCompleted()).isTrue();
        assertThat(manager.pollCompactionResult()).isEmpty();
        assertThat(names(manager.allFiles())).containsExactly("f3", "f2", "f1");
        manager.triggerCompaction(); // no-op while running
        flush(1);                   // writer keeps going
        assertThatThrownBy(manager::triggerFullCompaction).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("awaitCompactionResult");

        rewriter.gate.countDown();
        Optional<CompactResult> result = manager.awaitCompactionResult();
        assertThat(result).isPresent();
        assertThat(names(result.get().before())).containsExactlyInAnyOrder("f1", "f2", "f3");
        assertThat(names(manager.allFiles())).containsExactly("f4", "out-1");
        assertThat(manager.allFiles().get(1).level()).isEqualTo(3);
        assertThat(rewriter.threads).containsOnly("compactor");
        assertThat(rewriter.rewrites).hasSize(1);

        assertThat(manager.compactNotCompleted()).isFalse();
        assertThat(manager.pollCompactionResult()).isEmpty();
        assertThat(manager.awaitCompactionResult()).isEmpty();
        assertThat(names(manager.allFiles())).containsExactly("f4", "out-1");
    }

    @Test
    void pollCollectsAFinishedCompaction() throws Exception {
        flush(TRIGGER);
        manager.triggerCompaction();
        Optional<CompactResult> result = Optional.empty();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (result.isEmpty() && System.nanoTime() < deadline) {
            result = manager.pollCompactionResult();
            Thread.sleep(1);
        }
        assertThat(result).isPresent();
        assertThat(names(manager.allFiles())).containsExactly("out-1");
    }

    @Test
    void writerShouldWaitAboveTheStopTrigger() throws Exception {
        rewriter.gate = new CountDownLatch(1);
        flush(TRIGGER);
        manager.triggerCompaction();
        flush(STOP - TRIGGER);
        assertThat(manager.shouldWaitForLatestCompaction()).isFalse(); // STOP runs: not above
        flush(1);
        assertThat(manager.shouldWaitForLatestCompaction()).isTrue();

        rewriter.gate.countDown();
        manager.awaitCompactionResult();
        // 3 level-0 files became one run; 3 newer level-0 files remain
        assertThat(manager.levels().numberOfSortedRuns()).isEqualTo(4);
        assertThat(manager.shouldWaitForLatestCompaction()).isFalse();
    }

    @Test
    void failedCompactionSurfacesItsExceptionOnceAndChangesNothing() throws Exception {
        rewriter.failure = new IOException("disk full");
        flush(TRIGGER);
        manager.triggerCompaction();
        assertThatThrownBy(manager::awaitCompactionResult).isSameAs(rewriter.failure);
        assertThat(names(manager.allFiles())).containsExactly("f3", "f2", "f1");
        assertThat(manager.compactNotCompleted()).isFalse();
        assertThat(manager.awaitCompactionResult()).isEmpty();

        rewriter.failure = null;
        manager.triggerCompaction();
        assertThat(manager.awaitCompactionResult()).isPresent();
        assertThat(names(manager.allFiles())).containsExactly("out-1");
    }

    @Test
    void cancelInterruptsTheTaskAndKeepsTheLevels() throws Exception {
        rewriter.gate = new CountDownLatch(1); // never opened: only an interrupt ends the rewrite
        flush(TRIGGER);
        manager.triggerCompaction();
        assertThat(rewriter.started.await(10, TimeUnit.SECONDS)).isTrue();

        manager.cancelCompaction();
        assertThat(manager.compactNotCompleted()).isFalse();
        assertThat(manager.awaitCompactionResult()).isEmpty();
        assertThat(names(manager.allFiles())).containsExactly("f3", "f2", "f1");

        // the executor is free again: a new compaction runs
        rewriter.gate = null;
        manager.triggerCompaction();
        assertThat(manager.awaitCompactionResult()).isPresent();
        assertThat(manager.levels().numberOfSortedRuns()).isEqualTo(1);
    }

    @Test
    void cancellingAFinishedButUncollectedCompactionDiscardsItsFiles() throws Exception {
        flush(TRIGGER);
        manager.triggerCompaction();
        assertThat(rewriter.started.await(10, TimeUnit.SECONDS)).isTrue();
        executor.submit(() -> { }).get(); // single thread: the compaction has finished
        manager.cancelCompaction();
        assertThat(names(rewriter.discarded)).containsExactly("out-1");
        assertThat(names(manager.allFiles())).containsExactly("f3", "f2", "f1");
    }

    @Test
    void fullCompactionReachesTheMaxLevelAndDropsDeletes() throws Exception {
        flush(2);
        manager.triggerFullCompaction();
        assertThat(manager.awaitCompactionResult()).isPresent();
        assertThat(rewriter.rewrites.get(0).dropDelete()).isTrue();
        List<DataFileMeta> files = manager.allFiles();
        assertThat(files).hasSize(1);
        assertThat(files.get(0).level()).isEqualTo(3);

        manager.triggerFullCompaction(); // one clean file on the max level: nothing to do
        assertThat(manager.compactNotCompleted()).isFalse();
    }

    @Test
    void rejectsBadStopTrigger() {
        assertThatThrownBy(() -> new MergeTreeCompactManager(executor, new Levels(KEYS, List.of(), 4),
                new UniversalCompaction(200, 1, TRIGGER), KEYS, 100, 0, rewriter))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("stop-trigger");
    }
}
