package dev.streamhouse.storage.mergetree.compact;

import static dev.streamhouse.storage.mergetree.compact.TestFiles.namesOfRuns;
import static dev.streamhouse.storage.mergetree.compact.TestFiles.run;
import static dev.streamhouse.storage.mergetree.compact.TestFiles.runs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.streamhouse.storage.mergetree.LevelSortedRun;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

/** Hand-computed cases; defaults: size amplification 200 %, size ratio 1 %, trigger 5, 6 levels. */
class UniversalCompactionTest {
    private static final int NUM_LEVELS = 6;
    private final UniversalCompaction defaults = new UniversalCompaction(200, 1, 5);

    private static void assertPicks(Optional<CompactUnit> unit, List<LevelSortedRun> runs, int count, int level) {
        assertThat(unit).isPresent();
        assertThat(TestFiles.names(unit.get().files())).containsExactlyElementsOf(namesOfRuns(runs, count));
        assertThat(unit.get().outputLevel()).isEqualTo(level);
        assertThat(unit.get().fileRewrite()).isFalse();
    }

    @Test
    void belowTheTriggerNothingIsPicked() {
        // four equal runs would pass the size-ratio test, but 4 < trigger 5
        List<LevelSortedRun> four = runs(run(0, 1), run(0, 1), run(0, 1), run(0, 1));
        assertThat(defaults.pick(NUM_LEVELS, four)).isEmpty();
        // the same runs with trigger 4: size ratio takes all four -> max level
        assertPicks(new UniversalCompaction(200, 1, 4).pick(NUM_LEVELS, four), four, 4, 5);
        assertThat(defaults.pick(NUM_LEVELS, List.of())).isEmpty();
    }

    @Test
    void sizeAmplificationCompactsEverythingToTheMaxLevel() {
        // newer = 1+3+9+27 = 40; 40*100 = 4000 > 200*19 = 3800
        List<LevelSortedRun> runs = runs(run(0, 1), run(0, 3), run(0, 9), run(3, 27), run(4, 19));
        assertPicks(defaults.pick(NUM_LEVELS, runs), runs, 5, 5);
    }

    @Test
    void sizeAmplificationAtExactlyTheLimitDoesNotFire() {
        // 4000 > 200*20 = 4000 is false; size ratio: 1*101 < 3*100 stops at one run; 5 runs is not > 5
        List<LevelSortedRun> runs = runs(run(0, 1), run(0, 3), run(0, 9), run(3, 27), run(4, 20));
        assertThat(defaults.pick(NUM_LEVELS, runs)).isEmpty();
        // with 100 %: 4000 > 100*39 = 3900 fires
        List<LevelSortedRun> runs39 = runs(run(0, 1), run(0, 3), run(0, 9), run(3, 27), run(4, 39));
        assertPicks(new UniversalCompaction(100, 1, 5).pick(NUM_LEVELS, runs39), runs39, 5, 5);
        assertThat(defaults.pick(NUM_LEVELS, runs39)).isEmpty();
    }

    @Test
    void sizeRatioTakesSimilarNewestRuns() {
        // amp: 290*100 = 29000 <= 200*1000. ratio: 10 -> 10 (1010 >= 1000) -> 20 (2020 >= 2000)
        // -> 50? 40*101 = 4040 < 5000 stop: 3 runs; next run is on level 3 -> output 2
        List<LevelSortedRun> runs =
                runs(run(0, 10), run(0, 10), run(0, 20), run(3, 50), run(4, 200), run(5, 1000));
        assertPicks(defaults.pick(NUM_LEVELS, runs), runs, 3, 2);
    }

    @Test
    void sizeRatioBoundaryIsInclusive() {
        // 100*101 = 10100 >= 101*100 = 10100: taken; next 201*101 < 1000*100. Next run level 2 -> output 1
        List<LevelSortedRun> equal =
                runs(run(0, 100), run(1, 101), run(2, 1000), run(3, 10000), run(5, 100000));
        assertPicks(defaults.pick(NUM_LEVELS, equal), equal, 2, 1);
        // 10100 < 102*100: one run only, and 5 runs is not above the trigger
        List<LevelSortedRun> over =
                runs(run(0, 100), run(1, 102), run(2, 1000), run(3, 10000), run(5, 100000));
        assertThat(defaults.pick(NUM_LEVELS, over)).isEmpty();
        // size ratio 0 % demands equal or smaller sizes
        assertThat(new UniversalCompaction(200, 0, 5).pick(NUM_LEVELS, equal)).isEmpty();
    }

    @Test
    void runCountTakesEnoughNewestRunsToGetBackToTheTrigger() {
        // 6 runs > 5: take 6-5+1 = 2 (sizes 1, 3); 4*101 < 9*100 stops; next is level 2 -> output 1
        List<LevelSortedRun> runs =
                runs(run(0, 1), run(1, 3), run(2, 9), run(3, 27), run(4, 81), run(5, 100000));
        assertPicks(defaults.pick(NUM_LEVELS, runs), runs, 2, 1);
    }

    @Test
    void runCountPickGrowsBySizeRatio() {
        // take 2 (1, 3): acc 4; 4*101 = 404 >= 4*100 takes the level-2 run; 8*101 < 100*100 stops
        // next is level 3 -> output 2
        List<LevelSortedRun> runs =
                runs(run(0, 1), run(1, 3), run(2, 4), run(3, 100), run(4, 1000), run(5, 100000));
        assertPicks(defaults.pick(NUM_LEVELS, runs), runs, 3, 2);
    }

    @Test
    void outputNeverGoesToLevel0ExtendingOverLevel1() {
        // run count takes (1, 3); next is level 1 -> would be level 0, so take it; next level 2 -> output 1
        List<LevelSortedRun> runs =
                runs(run(0, 1), run(0, 3), run(1, 9), run(2, 27), run(3, 81), run(5, 100000));
        assertPicks(defaults.pick(NUM_LEVELS, runs), runs, 3, 1);
    }

    @Test
    void extensionTakesAllOfLevel0ButNotTheLargeRunAfterIt() {
        // run count takes (1, 3); the rest of level 0 follows; next is level 5 -> output 4 (level 5 untouched)
        List<LevelSortedRun> runs =
                runs(run(0, 1), run(0, 3), run(0, 9), run(0, 27), run(0, 81), run(5, 100000));
        assertPicks(defaults.pick(NUM_LEVELS, runs), runs, 5, 4);
    }

    @Test
    void allLevel0GoesToTheMaxLevel() {
        // amp: 121*100 = 12100 <= 200*243; ratio stops at one; run count takes 2, extension takes all
        List<LevelSortedRun> runs =
                runs(run(0, 1), run(0, 3), run(0, 9), run(0, 27), run(0, 81), run(0, 243));
        assertPicks(defaults.pick(NUM_LEVELS, runs), runs, 6, 5);
    }

    @Test
    void unitExtensionRules() {
        List<LevelSortedRun> runs = runs(run(0, 1), run(0, 1), run(1, 1), run(4, 1));
        assertThat(UniversalCompaction.unit(5, runs, 1).outputLevel()).isEqualTo(3);
        assertThat(UniversalCompaction.unit(5, runs, 1).files()).hasSize(3);
        assertThat(UniversalCompaction.unit(5, runs, 4).outputLevel()).isEqualTo(5);
        List<LevelSortedRun> gap = runs(run(0, 1), run(3, 1), run(5, 1));
        assertThat(UniversalCompaction.unit(5, gap, 1).outputLevel()).isEqualTo(2);
        assertThat(UniversalCompaction.unit(5, gap, 1).files()).hasSize(1);
    }

    @Test
    void rejectsBadSettings() {
        assertThatThrownBy(() -> new UniversalCompaction(-1, 1, 5)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new UniversalCompaction(200, -1, 5)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new UniversalCompaction(200, 1, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("compaction-trigger");
    }
}
