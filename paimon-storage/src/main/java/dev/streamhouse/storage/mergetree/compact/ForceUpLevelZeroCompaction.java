package dev.streamhouse.storage.mergetree.compact;

import dev.streamhouse.storage.mergetree.LevelSortedRun;

import java.util.List;
import java.util.Optional;

/**
 * Moves every level-0 file up, for engines whose batch reads skip level 0 (first-row): all level-0
 * runs go into the lowest level above them that keeps the LSM order. When level 1 holds a run, it is
 * merged in and the output stays on level 1; otherwise the output goes just below the lowest
 * non-empty level (the max level when there is none). Nothing to do without level-0 files.
 * Stateless and thread-safe.
 */
public final class ForceUpLevelZeroCompaction implements CompactStrategy {

    @Override
    public Optional<CompactUnit> pick(int numLevels, List<LevelSortedRun> runs) {
        int levelZeroRuns = 0;
        while (levelZeroRuns < runs.size() && runs.get(levelZeroRuns).level() == 0) {
            levelZeroRuns++;
        }
        if (levelZeroRuns == 0) {
            return Optional.empty();
        }
        if (levelZeroRuns == runs.size()) {
            return Optional.of(CompactUnit.ofRuns(numLevels - 1, runs));
        }
        int next = runs.get(levelZeroRuns).level();
        if (next == 1) {
            return Optional.of(CompactUnit.ofRuns(1, runs.subList(0, levelZeroRuns + 1)));
        }
        return Optional.of(CompactUnit.ofRuns(next - 1, runs.subList(0, levelZeroRuns)));
    }
}
