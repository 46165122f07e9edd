package dev.streamhouse.storage.append;

import dev.streamhouse.storage.manifest.DataFileMeta;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What a compaction coordinator knows of one partition of a bucket-unaware append table: the small
 * files it has seen committed and not yet handed to a compaction, and how many planning rounds went
 * by without a rewrite ("age"), by Apache Paimon 1.3.1's rules (its coordinator's per-partition state):
 * <ul>
 *   <li>{@link #addFiles} (new committed files of the partition) resets the age;
 *   <li>{@link #plan} packs the files ({@link AppendCompactPlanner#packUnaware}); if nothing packs, the
 *       age grows, and a partition older than {@value #COMPACT_AGE} rounds with two or more files has
 *       all of them rewritten together;
 *   <li>a partition without files, or older than {@value #REMOVE_AGE} rounds, may be forgotten.
 * </ul>
 * Files handed to a rewrite leave the partition's state; they come back only as the rewrite's output,
 * once that is committed. A group of one file is never planned: rewriting it alone changes nothing
 * (and its output would be planned again, forever).
 */
public final class UnawarePartitionCompactions {
    static final int COMPACT_AGE = 5;
    static final int REMOVE_AGE = 10;

    private final AppendCompactPlanner planner;
    private final Set<DataFileMeta> toCompact = new LinkedHashSet<>();
    private int age;

    public UnawarePartitionCompactions(AppendCompactPlanner planner) {
        this.planner = planner;
    }

    /** Small files of the partition that were committed since the last round. */
    public void addFiles(List<DataFileMeta> files) {
        age = 0;
        toCompact.addAll(files);
    }

    /** The groups of files to rewrite now, each together; they leave this state. */
    public List<List<DataFileMeta>> plan() {
        List<List<DataFileMeta>> groups = new ArrayList<>();
        for (List<DataFileMeta> group : planner.packUnaware(new ArrayList<>(toCompact))) {
            if (group.size() > 1) {
                groups.add(group);
            }
        }
        if (groups.isEmpty()) {
            age++;
            if (age > COMPACT_AGE && toCompact.size() > 1) {
                groups.add(new ArrayList<>(toCompact));
            }
        }
        for (List<DataFileMeta> group : groups) {
            group.forEach(toCompact::remove);
        }
        return groups;
    }

    /** Whether the coordinator may forget this partition. */
    public boolean readyToRemove() {
        return toCompact.isEmpty() || age > REMOVE_AGE;
    }

    /** The files waiting for a compaction (for tests and diagnostics). */
    public List<DataFileMeta> waiting() {
        return new ArrayList<>(toCompact);
    }
}
