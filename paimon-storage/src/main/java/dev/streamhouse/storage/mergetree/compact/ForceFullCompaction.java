package dev.streamhouse.storage.mergetree.compact;

import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.mergetree.LevelSortedRun;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Full compaction: everything into the max level, so the bucket becomes one sorted run without
 * deletes (what {@code full-compaction.delta-commits} and a full {@code compact} call ask for).
 *
 * <ul>
 *   <li>No runs: nothing to do.
 *   <li>Only the max level is non-empty: its files holding retractions (delete row count &gt; 0, or
 *       unknown) or deleted rows (a deletion vector) are rewritten one by one to drop them
 *       ({@link CompactUnit#fileRewrite()}); the others are already final, so with none to rewrite
 *       there is nothing to do.
 *   <li>Otherwise: all runs into the max level.
 * </ul>
 *
 * <p>Thread-safe if its predicate is.
 */
public final class ForceFullCompaction implements CompactStrategy {
    private final Predicate<DataFileMeta> hasDeletionVector;

    /** For a table without deletion vectors. */
    public ForceFullCompaction() {
        this(f -> false);
    }

    /** @param hasDeletionVector whether a file has deleted rows ({@code deletion-vectors.enabled}) */
    public ForceFullCompaction(Predicate<DataFileMeta> hasDeletionVector) {
        this.hasDeletionVector = hasDeletionVector;
    }

    @Override
    public Optional<CompactUnit> pick(int numLevels, List<LevelSortedRun> runs) {
        int maxLevel = numLevels - 1;
        if (runs.isEmpty()) {
            return Optional.empty();
        }
        if (runs.size() == 1 && runs.get(0).level() == maxLevel) {
            List<DataFileMeta> withDeletes = new ArrayList<>();
            for (DataFileMeta f : runs.get(0).run().files()) {
                if (f.deleteRowCount() == null || f.deleteRowCount() > 0 || hasDeletionVector.test(f)) {
                    withDeletes.add(f);
                }
            }
            return withDeletes.isEmpty()
                    ? Optional.empty()
                    : Optional.of(CompactUnit.rewriteEach(maxLevel, withDeletes));
        }
        return Optional.of(CompactUnit.ofRuns(maxLevel, runs));
    }
}
