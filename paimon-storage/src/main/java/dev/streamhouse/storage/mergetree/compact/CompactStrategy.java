package dev.streamhouse.storage.mergetree.compact;

import dev.streamhouse.storage.mergetree.LevelSortedRun;

import java.util.List;
import java.util.Optional;

/**
 * Decides which sorted runs of one bucket to compact next, and into which level.
 *
 * <p>Contract: {@code runs} are the bucket's sorted runs ordered newest to oldest, as
 * {@link Levels#levelSortedRuns()} returns them (each level-0 file, newest first, then the non-empty
 * levels ascending); all their levels are below {@code numLevels}. A returned unit holds a prefix of
 * {@code runs} (whole runs), except a {@link CompactUnit#fileRewrite()} unit. Implementations are
 * stateless or confine their state to the calling thread; they do no I/O.
 */
public interface CompactStrategy {

    /** The next compaction, or empty when the runs are in good enough shape. */
    Optional<CompactUnit> pick(int numLevels, List<LevelSortedRun> runs);
}
