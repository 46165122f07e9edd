package dev.streamhouse.storage.mergetree.read;

import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.mergetree.MergeFunctionFactory;

import java.util.List;

/** When the files of one bucket may be read as plain rows without merging (docs/format.md §8.2). */
public final class RawReadRule {
    private RawReadRule() {}

    /**
     * True iff every file has {@code _LEVEL != 0} and {@code _DELETE_ROW_COUNT == 0} (null counts as 0),
     * and either deletion vectors are enabled, or the engine {@link MergeFunctionFactory#rawReadAcrossLevels
     * reads across levels raw} (first-row), or all files are on one
     * level; or if there is a single file, on any level, without retractions (a data file is one
     * sorted run, so its keys are unique; Apache Paimon 1.3 reads such a split raw as well; with
     * deletion vectors or such an engine, level-0 files stay excluded). An empty
     * list is trivially raw-convertible.
     *
     * @param deletionVectors whether the table has {@code deletion-vectors.enabled}
     */
    public static boolean rawConvertible(List<DataFileMeta> files, boolean deletionVectors,
            MergeFunctionFactory engine) {
        boolean acrossLevels = engine.rawReadAcrossLevels();
        if (files.size() == 1 && files.get(0).deleteRowCountOrZero() == 0 && !deletionVectors
                && !acrossLevels) {
            return true;
        }
        for (DataFileMeta f : files) {
            if (f.level() == 0 || f.deleteRowCountOrZero() != 0) {
                return false;
            }
        }
        if (deletionVectors || acrossLevels) {
            return true;
        }
        for (DataFileMeta f : files) {
            if (f.level() != files.get(0).level()) {
                return false;
            }
        }
        return true;
    }
}
