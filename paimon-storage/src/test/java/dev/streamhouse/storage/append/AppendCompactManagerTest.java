package dev.streamhouse.storage.append;

import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.manifest.FileSource;
import dev.streamhouse.storage.stats.SimpleStats;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The candidate bookkeeping of a fixed bucket's background compaction, with a rewriter that merges a
 * group into one file of the group's total size (or fails, or blocks, on demand).
 */
class AppendCompactManagerTest {
    private static final long TARGET = 100;

    private final ExecutorService executor = Executors.newSingleThreadExecutor();
    private final List<String> discarded = Collections.synchronizedList(new ArrayList<>());
    private int nextFile;
    private long nextSeq;
    private volatile boolean fail;
    private volatile CountDownLatch block;

    @AfterEach
    void stop() {
        executor.shutdownNow();
    }

    private DataFileMeta file(long size) {
        DataFileMeta f = DataFileMeta.forAppend("f" + nextFile++, size, 10, SimpleStats.EMPTY, nextSeq, nextSeq + 9,
                0, 0L, FileSource.APPEND, null);
        nextSeq += 10;
        return f;
    }

    private final AppendCompactManager.Rewriter rewriter = new AppendCompactManager.Rewriter() {
        @Override
        public List<DataFileMeta> rewrite(List<DataFileMeta> files) throws IOException {
            if (block != null) {
                try {
                    block.await();
                } catch (InterruptedException e) {
                    throw new java.io.InterruptedIOException("cancelled");
                }
            }
            if (fail) {
                throw new IOException("injected");
            }
            long size = files.stream().mapToLong(DataFileMeta::fileSize).sum();
            DataFileMeta first = files.get(0);
            DataFileMeta last = files.get(files.size() - 1);
            return List.of(DataFileMeta.forAppend("c-" + first.fileName() + "-" + last.fileName(), size,
                    10L * files.size(), SimpleStats.EMPTY, first.minSequenceNumber(), last.maxSequenceNumber(), 0, 0L,
                    FileSource.COMPACT, null));
        }

        @Override
        public void discard(List<DataFileMeta> files) {
            files.forEach(f -> discarded.add(f.fileName()));
        }
    };

    private AppendCompactManager manager(int minFileNum, List<DataFileMeta> restored) {
        return new AppendCompactManager(executor, new AppendCompactPlanner(TARGET, minFileNum, 0, false), TARGET,
                rewriter, restored);
    }

    private static List<String> names(List<DataFileMeta> files) {
        return files.stream().map(DataFileMeta::fileName).toList();
    }

    @Test
    void minorCompactionRewritesTheFirstWindowAndItsSmallOutputStaysACandidate() throws Exception {
        AppendCompactManager m = manager(3, List.of(file(10), file(20)));
        m.triggerCompaction(false);
        assertThat(m.compactNotCompleted()).as("two files are no window of three").isFalse();

        m.addNewFile(file(30));
        m.addNewFile(file(5));
        m.triggerCompaction(false);
        assertThat(m.compactNotCompleted()).isTrue();
        assertThat(names(m.candidates())).as("the rewritten files left the candidates").containsExactly("f3");

        AppendCompactManager.Result r = m.awaitResult().orElseThrow();
        assertThat(names(r.before())).containsExactly("f0", "f1", "f2");
        assertThat(names(m.candidates())).as("the small output comes back, in sequence order")
                .containsExactly("c-f0-f2", "f3");
        assertThat(m.awaitResult()).isEmpty();
    }

    @Test
    void filesDroppedFromTheWindowsHeadAreNotConsideredAgain() throws Exception {
        // f0 (90) + f1 (20) reach the target: the window drops f0, for good.
        AppendCompactManager m = manager(3, List.of(file(90), file(20)));
        m.triggerCompaction(false);
        assertThat(names(m.candidates())).containsExactly("f1");

        // A large output is no candidate either.
        m.addNewFile(file(40));
        m.addNewFile(file(45));
        m.triggerCompaction(false);
        m.awaitResult().orElseThrow();
        assertThat(m.candidates()).isEmpty();
    }

    @Test
    void fullCompactionHandsOverEveryCandidateAndOnlyTheSmallOutputReturns() throws Exception {
        AppendCompactManager m = manager(5, List.of(file(150), file(10), file(20), file(30)));
        m.triggerCompaction(true);
        assertThat(m.candidates()).isEmpty();
        AppendCompactManager.Result r = m.awaitResult().orElseThrow();
        assertThat(names(r.before())).as("the leading large file stays").containsExactly("f1", "f2", "f3");
        assertThat(names(m.candidates())).containsExactly("c-f1-f3");

        AppendCompactManager few = manager(5, List.of(file(10), file(20)));
        few.triggerCompaction(true);
        assertThat(few.compactNotCompleted()).isFalse();
        assertThat(few.candidates()).as("fewer than three files: nothing handed over").hasSize(2);
    }

    @Test
    void aFailedCompactionIsThrownOnceAndItsFilesBecomeCandidatesAgain() throws Exception {
        AppendCompactManager m = manager(2, List.of(file(10), file(20)));
        fail = true;
        m.triggerCompaction(false);
        assertThatThrownBy(m::awaitResult).isInstanceOf(IOException.class).hasMessage("injected");
        assertThat(m.compactNotCompleted()).isFalse();
        assertThat(names(m.candidates())).containsExactly("f0", "f1");

        fail = false;
        m.triggerCompaction(false);
        assertThat(names(m.awaitResult().orElseThrow().after())).containsExactly("c-f0-f1");
    }

    @Test
    void aCancelledCompactionDeletesItsOutputWhetherItFinishedOrNot() throws Exception {
        AppendCompactManager finished = manager(2, List.of(file(10), file(20)));
        finished.triggerCompaction(false);
        // Let it finish, without collecting it.
        executor.submit(() -> { }).get();
        finished.cancelCompaction();
        assertThat(discarded).containsExactly("c-f0-f1");
        assertThat(names(finished.candidates())).containsExactly("f0", "f1");

        discarded.clear();
        block = new CountDownLatch(1);
        AppendCompactManager running = manager(2, List.of(file(10), file(20)));
        running.triggerCompaction(false);
        running.cancelCompaction();
        assertThat(running.compactNotCompleted()).isFalse();
        executor.shutdown();
        assertThat(executor.awaitTermination(1, java.util.concurrent.TimeUnit.MINUTES)).isTrue();
        assertThat(discarded).as("interrupted before writing anything").isEmpty();
    }
}
