package dev.streamhouse.storage.mergetree.compact;

import dev.streamhouse.storage.mergetree.LevelSortedRun;

import java.util.List;
import java.util.Optional;

/**
 * Universal compaction (RocksDB style, as Paimon documents it): keeps the number of sorted runs near
 * {@code num-sorted-run.compaction-trigger} while bounding space and write amplification.
 *
 * <p>Runs are ordered newest → oldest; {@code size(r)} is the total file size of run r and
 * {@code n} the number of runs. With fewer than {@code numRunCompactionTrigger} runs nothing is
 * picked. Otherwise the first rule that fires decides:
 *
 * <ol>
 *   <li><b>Size amplification.</b> If {@code (size(r0) + … + size(r[n-2])) × 100 >
 *       maxSizeAmpPercent × size(r[n-1])} — the newer runs are too large relative to the oldest —
 *       compact all runs into the max level.
 *   <li><b>Size ratio.</b> Starting with {@code r0} and {@code acc = size(r0)}, add the next run
 *       {@code r} while {@code acc × (100 + sizeRatioPercent) ≥ size(r) × 100}, adding its size to
 *       {@code acc}. If this takes at least two runs, compact them.
 *   <li><b>Run count.</b> If {@code n > numRunCompactionTrigger}, take the newest
 *       {@code n − trigger + 1} runs (leaving {@code trigger} runs after the compaction), then keep
 *       adding following runs by the size-ratio test of rule 2 (merging a run of similar size now
 *       saves rewriting it soon), and compact them.
 * </ol>
 *
 * <p><b>Output level.</b> Output never goes to level 0. First the pick is extended over every
 * directly following run on level 0 or 1 (so all of level 0 is always taken, and level 1 too when
 * it would be the next run). Then: if the pick holds all runs, the max level ({@code numLevels − 1},
 * where deletes can be dropped); otherwise {@code level(first run not picked) − 1}, which is ≥ 1 and
 * is either empty or wholly in the pick, so it is safely replaced. Why: a level-0 output would only
 * add one more overlapping run to merge again soon, and taking all of level 0 keeps level 0 strictly
 * newer than every level above it. Unlike always taking the first run above level 0, this never
 * pulls a large level ≥ 2 run into the merge. In particular, the first compaction of a bucket
 * holding only level-0 files writes to the max level.
 *
 * <p>Stateless and thread-safe.
 */
public final class UniversalCompaction implements CompactStrategy {
    private final int maxSizeAmpPercent;
    private final int sizeRatioPercent;
    private final int numRunCompactionTrigger;

    /**
     * @param maxSizeAmpPercent {@code compaction.max-size-amplification-percent} (default 200)
     * @param sizeRatioPercent {@code compaction.size-ratio} (default 1)
     * @param numRunCompactionTrigger {@code num-sorted-run.compaction-trigger} (default 5)
     */
    public UniversalCompaction(int maxSizeAmpPercent, int sizeRatioPercent, int numRunCompactionTrigger) {
        if (maxSizeAmpPercent < 0 || sizeRatioPercent < 0) {
            throw new IllegalArgumentException("Cannot configure universal compaction: percentages must be >= 0, got "
                    + "max-size-amplification-percent=" + maxSizeAmpPercent + ", size-ratio=" + sizeRatioPercent);
        }
        if (numRunCompactionTrigger < 1) {
            throw new IllegalArgumentException("Cannot configure universal compaction: "
                    + "num-sorted-run.compaction-trigger must be >= 1, got " + numRunCompactionTrigger);
        }
        this.maxSizeAmpPercent = maxSizeAmpPercent;
        this.sizeRatioPercent = sizeRatioPercent;
        this.numRunCompactionTrigger = numRunCompactionTrigger;
    }

    @Override
    public Optional<CompactUnit> pick(int numLevels, List<LevelSortedRun> runs) {
        int n = runs.size();
        if (n < numRunCompactionTrigger) {
            return Optional.empty();
        }
        int maxLevel = numLevels - 1;
        if (sizeAmplificationTooHigh(runs)) {
            return Optional.of(CompactUnit.ofRuns(maxLevel, runs));
        }
        int bySizeRatio = extendBySizeRatio(runs, 1);
        if (bySizeRatio >= 2) {
            return Optional.of(unit(maxLevel, runs, bySizeRatio));
        }
        if (n > numRunCompactionTrigger) {
            int count = extendBySizeRatio(runs, n - numRunCompactionTrigger + 1);
            return Optional.of(unit(maxLevel, runs, count));
        }
        return Optional.empty();
    }

    private boolean sizeAmplificationTooHigh(List<LevelSortedRun> runs) {
        long newer = 0;
        for (int i = 0; i < runs.size() - 1; i++) {
            newer += size(runs.get(i));
        }
        long oldest = size(runs.get(runs.size() - 1));
        return newer * 100 > (long) maxSizeAmpPercent * oldest;
    }

    /** How many newest runs to take, starting from {@code count}, growing while sizes are similar. */
    private int extendBySizeRatio(List<LevelSortedRun> runs, int count) {
        long acc = 0;
        for (int i = 0; i < count; i++) {
            acc += size(runs.get(i));
        }
        while (count < runs.size()) {
            long next = size(runs.get(count));
            if (acc * (100 + sizeRatioPercent) < next * 100) {
                break;
            }
            acc += next;
            count++;
        }
        return count;
    }

    /** A unit of the newest {@code count} runs, extended so that it never outputs to level 0. */
    static CompactUnit unit(int maxLevel, List<LevelSortedRun> runs, int count) {
        while (count < runs.size() && runs.get(count).level() <= 1) {
            count++;
        }
        int outputLevel = count == runs.size() ? maxLevel : runs.get(count).level() - 1;
        return CompactUnit.ofRuns(outputLevel, runs.subList(0, count));
    }

    private static long size(LevelSortedRun run) {
        return run.run().totalSize();
    }
}
