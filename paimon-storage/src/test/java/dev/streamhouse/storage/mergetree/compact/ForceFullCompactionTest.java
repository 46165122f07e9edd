package dev.streamhouse.storage.mergetree.compact;

import static dev.streamhouse.storage.mergetree.compact.TestFiles.file;
import static dev.streamhouse.storage.mergetree.compact.TestFiles.names;
import static dev.streamhouse.storage.mergetree.compact.TestFiles.run;
import static dev.streamhouse.storage.mergetree.compact.TestFiles.runs;
import static dev.streamhouse.storage.mergetree.compact.TestFiles.withDeletes;
import static org.assertj.core.api.Assertions.assertThat;

import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.mergetree.LevelSortedRun;
import dev.streamhouse.storage.mergetree.SortedRun;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

class ForceFullCompactionTest {
    private final ForceFullCompaction full = new ForceFullCompaction();

    @Test
    void nothingToCompact() {
        assertThat(full.pick(6, List.of())).isEmpty();
    }

    @Test
    void everythingGoesToTheMaxLevel() {
        List<LevelSortedRun> runs = runs(run(0, 1), run(2, 10), run(5, 100));
        Optional<CompactUnit> unit = full.pick(6, runs);
        assertThat(unit).isPresent();
        assertThat(unit.get().outputLevel()).isEqualTo(5);
        assertThat(unit.get().files()).hasSize(3);
        assertThat(unit.get().fileRewrite()).isFalse();
    }

    @Test
    void aSingleRunBelowTheMaxLevelMovesUp() {
        Optional<CompactUnit> unit = full.pick(6, runs(run(3, 10)));
        assertThat(unit).isPresent();
        assertThat(unit.get().outputLevel()).isEqualTo(5);
    }

    @Test
    void maxLevelWithoutDeletesIsDone() {
        assertThat(full.pick(6, runs(run(5, 10)))).isEmpty();
    }

    @Test
    void maxLevelFilesWithDeletesAreRewrittenOneByOne() {
        DataFileMeta clean = file("clean", 5, 0, 9, 10);
        DataFileMeta deletes = withDeletes(file("deletes", 5, 10, 19, 10), 3L);
        DataFileMeta unknown = withDeletes(file("unknown", 5, 20, 29, 10), null);
        Optional<CompactUnit> unit =
                full.pick(6, List.of(new LevelSortedRun(5, new SortedRun(List.of(clean, deletes, unknown)))));
        assertThat(unit).isPresent();
        assertThat(names(unit.get().files())).containsExactly("deletes", "unknown");
        assertThat(unit.get().outputLevel()).isEqualTo(5);
        assertThat(unit.get().fileRewrite()).isTrue();
    }
}
