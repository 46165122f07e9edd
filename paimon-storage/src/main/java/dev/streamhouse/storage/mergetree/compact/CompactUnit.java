package dev.streamhouse.storage.mergetree.compact;

import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.mergetree.LevelSortedRun;

import java.util.ArrayList;
import java.util.List;

/**
 * What one compaction works on: the input files of one bucket and the level its output goes to.
 *
 * <p>A unit picked from sorted runs always holds whole runs, so every file of a level it touches is
 * in it, and every level below {@code outputLevel} that is not in it is empty. Only a
 * {@code fileRewrite} unit may hold part of a level.
 *
 * @param outputLevel level of the output files, in {@code 0..numLevels-1}
 * @param files input files, in the order of the runs they came from (newest run first)
 * @param fileRewrite every input file must be rewritten on its own, never upgraded or merged with a
 *     neighbour (used to purge deletes from files already on the max level)
 */
public record CompactUnit(int outputLevel, List<DataFileMeta> files, boolean fileRewrite) {

    public CompactUnit {
        if (outputLevel < 0) {
            throw new IllegalArgumentException("Cannot compact to level " + outputLevel + ": levels start at 0");
        }
        files = List.copyOf(files);
    }

    /** A unit merging the given runs (all their files) into {@code outputLevel}. */
    public static CompactUnit ofRuns(int outputLevel, List<LevelSortedRun> runs) {
        List<DataFileMeta> files = new ArrayList<>();
        for (LevelSortedRun run : runs) {
            files.addAll(run.run().files());
        }
        return new CompactUnit(outputLevel, files, false);
    }

    /** A unit rewriting each of {@code files} on its own into {@code outputLevel}. */
    public static CompactUnit rewriteEach(int outputLevel, List<DataFileMeta> files) {
        return new CompactUnit(outputLevel, files, true);
    }
}
