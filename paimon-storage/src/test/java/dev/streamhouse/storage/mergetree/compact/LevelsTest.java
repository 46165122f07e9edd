package dev.streamhouse.storage.mergetree.compact;

import static dev.streamhouse.storage.mergetree.compact.TestFiles.KEYS;
import static dev.streamhouse.storage.mergetree.compact.TestFiles.file;
import static dev.streamhouse.storage.mergetree.compact.TestFiles.names;
import static dev.streamhouse.storage.mergetree.compact.TestFiles.withSeq;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.mergetree.LevelSortedRun;
import org.junit.jupiter.api.Test;

import java.util.List;

class LevelsTest {

    private static DataFileMeta l0(String name, long maxSeq) {
        return withSeq(file(name, 0, 0, 100, 10), 0, maxSeq);
    }

    @Test
    void restoresArbitraryOrderIntoLevels() {
        DataFileMeta a = l0("a", 5);
        DataFileMeta b = l0("b", 9);
        DataFileMeta c = l0("c", 5); // same max sequence number as a: name decides
        DataFileMeta x = file("x", 2, 50, 60, 100);
        DataFileMeta y = file("y", 2, 1, 10, 200);
        DataFileMeta z = file("z", 5, 0, 100, 1000);

        Levels levels = new Levels(KEYS, List.of(x, a, z, c, y, b), 6);

        assertThat(names(levels.level0Files())).containsExactly("b", "a", "c");
        assertThat(names(levels.runOfLevel(2).files())).containsExactly("y", "x");
        assertThat(levels.runOfLevel(1).isEmpty()).isTrue();
        List<LevelSortedRun> runs = levels.levelSortedRuns();
        assertThat(runs).extracting(LevelSortedRun::level).containsExactly(0, 0, 0, 2, 5);
        assertThat(names(runs.get(3).run().files())).containsExactly("y", "x");
        assertThat(levels.numberOfSortedRuns()).isEqualTo(5);
        assertThat(levels.numberOfLevels()).isEqualTo(6);
        assertThat(levels.maxLevel()).isEqualTo(5);
        assertThat(levels.nonEmptyHighestLevel()).isEqualTo(5);
        assertThat(names(levels.allFiles())).containsExactly("b", "a", "c", "y", "x", "z");
        assertThat(levels.totalSize()).isEqualTo(3 * 10 + 100 + 200 + 1000);
    }

    @Test
    void emptyAndLevel0OnlyHighestLevel() {
        Levels levels = new Levels(KEYS, List.of(), 3);
        assertThat(levels.nonEmptyHighestLevel()).isEqualTo(-1);
        assertThat(levels.numberOfSortedRuns()).isZero();
        assertThat(levels.levelSortedRuns()).isEmpty();
        levels.addLevel0File(l0("a", 1));
        assertThat(levels.nonEmptyHighestLevel()).isZero();
        assertThat(levels.numberOfSortedRuns()).isEqualTo(1);
    }

    @Test
    void newLevel0FilesGoNewestFirst() {
        Levels levels = new Levels(KEYS, List.of(), 6);
        levels.addLevel0File(l0("old", 3));
        levels.addLevel0File(l0("new", 7));
        levels.addLevel0File(l0("mid", 5));
        assertThat(names(levels.level0Files())).containsExactly("new", "mid", "old");
    }

    @Test
    void restoredLevelAboveNumLevelsWidensLevels() {
        Levels levels = new Levels(KEYS, List.of(file("deep", 7, 0, 1, 1)), 6);
        assertThat(levels.maxLevel()).isEqualTo(7);
        assertThat(levels.nonEmptyHighestLevel()).isEqualTo(7);
    }

    @Test
    void rejectsTooFewLevels() {
        assertThatThrownBy(() -> new Levels(KEYS, List.of(), 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("num-levels");
    }

    @Test
    void rejectsOverlappingFilesOnASortedLevel() {
        assertThatThrownBy(() -> new Levels(KEYS, List.of(file("p", 1, 0, 10, 1), file("q", 1, 5, 20, 1)), 6))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("p").hasMessageContaining("q").hasMessageContaining("level 1");
        // touching bounds overlap too: both files would hold key 10
        assertThatThrownBy(() -> new Levels(KEYS, List.of(file("p", 1, 0, 10, 1), file("q", 1, 10, 20, 1)), 6))
                .isInstanceOf(IllegalStateException.class);
        // level 0 may overlap freely
        assertThat(new Levels(KEYS, List.of(l0("p", 1), l0("q", 2)), 6).numberOfSortedRuns()).isEqualTo(2);
    }

    @Test
    void updateReplacesInputsWithOutputs() {
        DataFileMeta a = l0("a", 1);
        DataFileMeta b = l0("b", 2);
        DataFileMeta keep = file("keep", 3, 200, 300, 50);
        Levels levels = new Levels(KEYS, List.of(a, b, keep), 6);

        DataFileMeta out1 = file("out1", 2, 0, 40, 10);
        DataFileMeta out2 = file("out2", 2, 41, 100, 10);
        levels.update(List.of(a, b), List.of(out2, out1));

        assertThat(levels.level0Files()).isEmpty();
        assertThat(names(levels.runOfLevel(2).files())).containsExactly("out1", "out2");
        assertThat(levels.levelSortedRuns()).extracting(LevelSortedRun::level).containsExactly(2, 3);
    }

    @Test
    void upgradeMovesTheSameFile() {
        DataFileMeta a = l0("a", 1);
        Levels levels = new Levels(KEYS, List.of(a), 6);
        levels.update(List.of(a), List.of(a.upgrade(5)));
        assertThat(levels.level0Files()).isEmpty();
        assertThat(levels.runOfLevel(5).files()).containsExactly(a.upgrade(5));
    }

    @Test
    void applyingTheSameResultTwiceFailsAndChangesNothing() {
        DataFileMeta a = l0("a", 1);
        DataFileMeta b = l0("b", 2);
        Levels levels = new Levels(KEYS, List.of(a, b), 6);
        DataFileMeta out = file("out", 5, 0, 100, 20);
        levels.update(List.of(a, b), List.of(out));

        assertThatThrownBy(() -> levels.update(List.of(a, b), List.of(out)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("a is not on level 0");
        assertThat(names(levels.allFiles())).containsExactly("out");
    }

    @Test
    void updateThatWouldOverlapIsRejectedWhole() {
        DataFileMeta a = l0("a", 1);
        DataFileMeta resident = file("resident", 2, 0, 50, 10);
        Levels levels = new Levels(KEYS, List.of(a, resident), 6);

        assertThatThrownBy(() -> levels.update(List.of(a), List.of(file("bad", 2, 40, 100, 10))))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("bad");
        assertThat(names(levels.allFiles())).containsExactly("a", "resident");
    }

    @Test
    void fileNamesStayUnique() {
        Levels levels = new Levels(KEYS, List.of(l0("a", 1)), 6);
        assertThatThrownBy(() -> levels.addLevel0File(l0("a", 4)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("live twice");
        assertThatThrownBy(() -> levels.update(List.of(), List.of(file("a", 3, 0, 1, 1))))
                .isInstanceOf(IllegalStateException.class);
        assertThat(names(levels.allFiles())).containsExactly("a");
    }

    @Test
    void rejectsBadLevels() {
        Levels levels = new Levels(KEYS, List.of(), 6);
        assertThatThrownBy(() -> levels.addLevel0File(file("x", 2, 0, 1, 1)))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> levels.update(List.of(), List.of(file("x", 6, 0, 1, 1))))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("outside 0..5");
        assertThatThrownBy(() -> levels.runOfLevel(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> levels.runOfLevel(6)).isInstanceOf(IllegalArgumentException.class);
    }
}
