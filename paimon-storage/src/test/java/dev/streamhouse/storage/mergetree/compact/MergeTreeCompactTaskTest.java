package dev.streamhouse.storage.mergetree.compact;

import static dev.streamhouse.storage.mergetree.compact.TestFiles.KEYS;
import static dev.streamhouse.storage.mergetree.compact.TestFiles.file;
import static dev.streamhouse.storage.mergetree.compact.TestFiles.names;
import static dev.streamhouse.storage.mergetree.compact.TestFiles.withDeletes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.mergetree.compact.RecordingRewriter.RewriteCall;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;

class MergeTreeCompactTaskTest {
    private static final long SMALL = 100;
    private final RecordingRewriter rewriter = new RecordingRewriter();

    private CompactResult run(int outputLevel, int nonEmptyHighestLevel, DataFileMeta... files) throws Exception {
        CompactUnit unit = new CompactUnit(outputLevel, List.of(files), false);
        return new MergeTreeCompactTask(KEYS, SMALL, rewriter, unit, nonEmptyHighestLevel).call();
    }

    @Test
    void dropDeleteOnlyWhenNothingOlderRemains() {
        assertThat(MergeTreeCompactTask.dropDelete(0, 0)).isFalse();
        assertThat(MergeTreeCompactTask.dropDelete(0, -1)).isFalse();
        assertThat(MergeTreeCompactTask.dropDelete(3, 5)).isFalse();
        assertThat(MergeTreeCompactTask.dropDelete(5, 5)).isTrue();
        assertThat(MergeTreeCompactTask.dropDelete(3, 3)).isTrue();
        assertThat(MergeTreeCompactTask.dropDelete(3, 0)).isTrue();
    }

    @Test
    void largeFilesThatOverlapNothingAreUpgraded() throws Exception {
        DataFileMeta a = file("a", 0, 0, 9, 200);
        DataFileMeta b = file("b", 0, 10, 19, 200);
        CompactResult result = run(5, 0, b, a);
        assertThat(rewriter.rewrites).isEmpty();
        assertThat(result.before()).containsExactly(a, b);
        assertThat(result.after()).containsExactly(a.upgrade(5), b.upgrade(5));
    }

    @Test
    void overlappingFilesAreRewrittenTogether() throws Exception {
        DataFileMeta a = file("a", 0, 0, 10, 200);
        DataFileMeta b = file("b", 0, 5, 20, 200);
        DataFileMeta c = file("c", 0, 30, 40, 200);
        CompactResult result = run(4, 5, a, b, c);
        assertThat(rewriter.rewrites).hasSize(1);
        RewriteCall call = rewriter.rewrites.get(0);
        assertThat(call.sections()).hasSize(1);
        assertThat(call.sections().get(0)).hasSize(2); // a and b overlap: two runs in one section
        assertThat(call.outputLevel()).isEqualTo(4);
        assertThat(call.dropDelete()).isFalse();
        assertThat(names(rewriter.upgrades)).containsExactly("c");
        assertThat(names(result.before())).containsExactly("a", "b", "c");
        assertThat(names(result.after())).containsExactly("out-1", "c");
    }

    @Test
    void smallNeighbouringSectionsShareOneRewriteThatNeverSpansAnUpgrade() throws Exception {
        DataFileMeta s1 = file("s1", 0, 0, 9, 10);
        DataFileMeta s2 = file("s2", 0, 10, 19, 10);
        DataFileMeta p = file("p", 0, 20, 29, 20);
        DataFileMeta q = file("q", 0, 25, 35, 20);
        DataFileMeta big = file("big", 0, 40, 49, 200);
        DataFileMeta s3 = file("s3", 0, 50, 59, 10);
        DataFileMeta s4 = file("s4", 0, 60, 69, 10);
        run(5, 0, s4, big, q, s1, p, s3, s2);

        assertThat(rewriter.rewrites).hasSize(2);
        assertThat(rewriter.rewrites.get(0).sections()).hasSize(3);
        assertThat(rewriter.rewrites.get(0).inputNames()).containsExactly("p", "q", "s1", "s2");
        assertThat(rewriter.rewrites.get(1).inputNames()).containsExactly("s3", "s4");
        assertThat(names(rewriter.upgrades)).containsExactly("big");
    }

    @Test
    void batchIsWrittenOnceItReachesTheThreshold() throws Exception {
        // three overlapping pairs of 30 + 30 bytes: 60 < 100, 120 >= 100 -> write; then 60 at the end
        run(5, 0,
                file("a1", 0, 0, 9, 30), file("a2", 0, 5, 12, 30),
                file("b1", 0, 20, 29, 30), file("b2", 0, 25, 32, 30),
                file("c1", 0, 40, 49, 30), file("c2", 0, 45, 52, 30));
        assertThat(rewriter.rewrites).extracting(RewriteCall::inputNames)
                .containsExactly(List.of("a1", "a2", "b1", "b2"), List.of("c1", "c2"));
    }

    @Test
    void aLoneSmallFileIsUpgradedNotRewritten() throws Exception {
        DataFileMeta big1 = file("big1", 0, 0, 9, 200);
        DataFileMeta small = file("small", 0, 10, 19, 10);
        DataFileMeta big2 = file("big2", 0, 20, 29, 200);
        CompactResult result = run(3, 5, big1, small, big2);
        assertThat(rewriter.rewrites).isEmpty();
        assertThat(names(rewriter.upgrades)).containsExactly("big1", "small", "big2");
        assertThat(result.after()).extracting(DataFileMeta::level).containsOnly(3);
    }

    @Test
    void fileWithDeletesIsRewrittenWhenDeletesAreDropped() throws Exception {
        DataFileMeta d = withDeletes(file("d", 0, 0, 9, 200), 2L);
        CompactResult dropped = run(5, 5, d);
        assertThat(rewriter.rewrites).hasSize(1);
        assertThat(rewriter.rewrites.get(0).dropDelete()).isTrue();
        assertThat(dropped.after().get(0).deleteRowCount()).isZero();
        assertThat(rewriter.upgrades).isEmpty();
    }

    @Test
    void fileWithDeletesIsUpgradedWhenOlderDataRemains() throws Exception {
        DataFileMeta d = withDeletes(file("d", 0, 0, 9, 200), 2L);
        CompactResult result = run(3, 5, d);
        assertThat(rewriter.rewrites).isEmpty();
        assertThat(result.after()).containsExactly(d.upgrade(3));
    }

    @Test
    void unknownDeleteCountCountsAsDeletes() throws Exception {
        DataFileMeta unknown = withDeletes(file("u", 0, 0, 9, 200), null);
        run(5, 5, unknown);
        assertThat(rewriter.rewrites).hasSize(1);
        run(4, 5, unknown);
        assertThat(names(rewriter.upgrades)).containsExactly("u");
    }

    @Test
    void fileRewriteRewritesEachFileAlone() throws Exception {
        DataFileMeta d1 = withDeletes(file("d1", 5, 0, 9, 10), 1L);
        DataFileMeta d2 = withDeletes(file("d2", 5, 20, 29, 10), 1L);
        CompactResult result =
                new MergeTreeCompactTask(KEYS, SMALL, rewriter, CompactUnit.rewriteEach(5, List.of(d1, d2)), 5).call();
        assertThat(rewriter.rewrites).extracting(RewriteCall::inputNames)
                .containsExactly(List.of("d1"), List.of("d2"));
        assertThat(names(result.before())).containsExactly("d1", "d2");
        assertThat(result.after()).extracting(DataFileMeta::level).containsOnly(5);
    }

    @Test
    void fileAlreadyOnTheOutputLevelIsLeftAlone() throws Exception {
        DataFileMeta a = file("a", 0, 0, 9, 200);
        DataFileMeta b = file("b", 3, 20, 29, 200);
        CompactResult result = run(3, 5, a, b);
        assertThat(result.before()).containsExactly(a);
        assertThat(result.after()).containsExactly(a.upgrade(3));
        assertThat(names(rewriter.upgrades)).containsExactly("a");
    }

    @Test
    void failureDiscardsEarlierRewritesAndRethrows() {
        rewriter.failure = new IOException("disk full");
        rewriter.failAfter = 1;
        assertThatThrownBy(() -> run(5, 0,
                file("a1", 0, 0, 9, 100), file("a2", 0, 5, 12, 100),
                file("b1", 0, 20, 29, 100), file("b2", 0, 25, 32, 100)))
                .isSameAs(rewriter.failure);
        assertThat(names(rewriter.discarded)).containsExactly("out-1");
    }

    @Test
    void interruptedTaskStopsBeforeRewriting() {
        Thread.currentThread().interrupt();
        try {
            assertThatThrownBy(() -> run(5, 0, file("a1", 0, 0, 9, 100), file("a2", 0, 5, 12, 100)))
                    .isInstanceOf(InterruptedException.class);
            assertThat(rewriter.rewrites).isEmpty();
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void resultsMergeInOrder() {
        DataFileMeta a = file("a", 0, 0, 1, 1);
        DataFileMeta b = file("b", 0, 2, 3, 1);
        CompactResult first = new CompactResult(List.of(a), List.of(a.upgrade(2)));
        CompactResult second = new CompactResult(List.of(b), List.of());
        CompactResult merged = CompactResult.mergeAll(List.of(first, CompactResult.empty(), second));
        assertThat(merged.before()).containsExactly(a, b);
        assertThat(merged.after()).containsExactly(a.upgrade(2));
        assertThat(CompactResult.empty().isEmpty()).isTrue();
        assertThat(merged.isEmpty()).isFalse();
        assertThat(MergeTreeCompactTask.newFiles(new CompactResult(List.of(a), List.of(a.upgrade(2), b))))
                .containsExactly(b);
    }
}
