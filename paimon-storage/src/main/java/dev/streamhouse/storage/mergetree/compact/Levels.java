package dev.streamhouse.storage.mergetree.compact;

import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.mergetree.KeyComparator;
import dev.streamhouse.storage.mergetree.LevelSortedRun;
import dev.streamhouse.storage.mergetree.SortedRun;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The LSM state of one bucket: which live file sits on which level (docs/format.md §8.2).
 *
 * <ul>
 *   <li>Level 0 holds flushed files; each is its own sorted run, ordered newest first (larger max
 *       sequence number first, ties by file name).
 *   <li>Each level {@code 1..maxLevel()} is one sorted run: files ordered by min key, with disjoint
 *       key ranges ({@code maxKey(a) < minKey(b)}).
 * </ul>
 *
 * <p>Every change is validated before it takes effect: a change that would break an invariant
 * (overlapping files on a level, a file name twice, removing a file that is not there) throws
 * {@link IllegalStateException} and leaves the levels as they were.
 *
 * <p>Not thread-safe: owned by the bucket's writer thread.
 */
public final class Levels {
    private static final Comparator<DataFileMeta> NEWEST_FIRST =
            Comparator.comparingLong(DataFileMeta::maxSequenceNumber).reversed()
                    .thenComparing(DataFileMeta::fileName);

    private final KeyComparator keyComparator;
    private final int numberOfLevels;
    /** Level 0, newest first. */
    private List<DataFileMeta> level0 = List.of();
    /** Index i holds level i + 1, files by min key. */
    private final List<List<DataFileMeta>> upperLevels = new ArrayList<>();

    /**
     * Levels holding {@code files}, each on the level it names (e.g. the live files of a bucket in a
     * snapshot, in any order).
     *
     * @param numLevels the configured {@code num-levels}; raised to fit the highest restored level,
     *     so a table whose {@code num-levels} was lowered stays readable
     * @throws IllegalArgumentException if {@code numLevels < 2}
     * @throws IllegalStateException if the files break an invariant (e.g. overlapping on a level)
     */
    public Levels(KeyComparator keyComparator, List<DataFileMeta> files, int numLevels) {
        if (numLevels < 2) {
            throw new IllegalArgumentException(
                    "Cannot build LSM levels: num-levels must be at least 2 (level 0 and one sorted level), got "
                            + numLevels);
        }
        this.keyComparator = keyComparator;
        int highest = numLevels - 1;
        for (DataFileMeta f : files) {
            if (f.level() < 0) {
                throw new IllegalStateException("Cannot restore file " + f.fileName() + ": negative level " + f.level());
            }
            highest = Math.max(highest, f.level());
        }
        this.numberOfLevels = highest + 1;
        for (int i = 1; i < numberOfLevels; i++) {
            upperLevels.add(List.of());
        }
        apply(List.of(), files, "restore files");
    }

    /**
     * Adds a newly flushed file to level 0.
     *
     * @throws IllegalArgumentException if the file is not on level 0
     */
    public void addLevel0File(DataFileMeta file) {
        if (file.level() != 0) {
            throw new IllegalArgumentException(
                    "Cannot add new file " + file.fileName() + " to level 0: it says level " + file.level());
        }
        apply(List.of(), List.of(file), "add new file");
    }

    /**
     * Applies a compaction: removes each {@code before} file from the level it names, then adds each
     * {@code after} file to the level it names. All or nothing.
     *
     * @throws IllegalStateException if a before-file is not on its level (e.g. a result applied twice)
     *     or the after-files break an invariant
     */
    public void update(List<DataFileMeta> before, List<DataFileMeta> after) {
        apply(before, after, "apply compaction result");
    }

    /** Sorted runs newest to oldest: each level-0 file, then every non-empty level ascending. */
    public List<LevelSortedRun> levelSortedRuns() {
        List<LevelSortedRun> runs = new ArrayList<>();
        for (DataFileMeta f : level0) {
            runs.add(new LevelSortedRun(0, SortedRun.of(f)));
        }
        for (int level = 1; level < numberOfLevels; level++) {
            List<DataFileMeta> files = upperLevels.get(level - 1);
            if (!files.isEmpty()) {
                runs.add(new LevelSortedRun(level, new SortedRun(files)));
            }
        }
        return runs;
    }

    /** Level-0 files plus non-empty levels above 0. */
    public int numberOfSortedRuns() {
        int runs = level0.size();
        for (List<DataFileMeta> files : upperLevels) {
            if (!files.isEmpty()) {
                runs++;
            }
        }
        return runs;
    }

    /** Levels 0..maxLevel(). */
    public int numberOfLevels() {
        return numberOfLevels;
    }

    /** The highest level, where full compaction writes. */
    public int maxLevel() {
        return numberOfLevels - 1;
    }

    /** The highest level holding a file; -1 when there are no files. */
    public int nonEmptyHighestLevel() {
        for (int level = numberOfLevels - 1; level >= 1; level--) {
            if (!upperLevels.get(level - 1).isEmpty()) {
                return level;
            }
        }
        return level0.isEmpty() ? -1 : 0;
    }

    /** Level-0 files, newest first. */
    public List<DataFileMeta> level0Files() {
        return level0;
    }

    /**
     * The sorted run of {@code level} (possibly empty).
     *
     * @throws IllegalArgumentException unless {@code 1 <= level <= maxLevel()}
     */
    public SortedRun runOfLevel(int level) {
        if (level < 1 || level >= numberOfLevels) {
            throw new IllegalArgumentException(
                    "Cannot read level " + level + ": sorted levels are 1.." + maxLevel());
        }
        return new SortedRun(upperLevels.get(level - 1));
    }

    /** Every file: level 0 newest first, then levels ascending, each by min key. */
    public List<DataFileMeta> allFiles() {
        List<DataFileMeta> all = new ArrayList<>(level0);
        for (List<DataFileMeta> files : upperLevels) {
            all.addAll(files);
        }
        return all;
    }

    /** Sum of all file sizes in bytes. */
    public long totalSize() {
        long size = 0;
        for (DataFileMeta f : allFiles()) {
            size += f.fileSize();
        }
        return size;
    }

    private void apply(List<DataFileMeta> before, List<DataFileMeta> after, String action) {
        List<List<DataFileMeta>> next = new ArrayList<>();
        next.add(new ArrayList<>(level0));
        for (List<DataFileMeta> files : upperLevels) {
            next.add(new ArrayList<>(files));
        }
        Set<Integer> touched = new HashSet<>();
        for (DataFileMeta f : before) {
            checkLevel(f, action);
            if (!next.get(f.level()).removeIf(g -> g.fileName().equals(f.fileName()))) {
                throw new IllegalStateException("Cannot " + action + ": file " + f.fileName() + " is not on level "
                        + f.level() + " (result applied twice, or from another bucket?)");
            }
        }
        for (DataFileMeta f : after) {
            checkLevel(f, action);
            next.get(f.level()).add(f);
            touched.add(f.level());
        }
        next.get(0).sort(NEWEST_FIRST);
        for (int level : touched) {
            if (level > 0) {
                List<DataFileMeta> files = next.get(level);
                files.sort((a, b) -> keyComparator.compare(a.minKey(), b.minKey()));
                checkDisjoint(level, files, action);
            }
        }
        checkUniqueNames(next, action);
        level0 = List.copyOf(next.get(0));
        for (int level = 1; level < numberOfLevels; level++) {
            upperLevels.set(level - 1, List.copyOf(next.get(level)));
        }
    }

    private void checkLevel(DataFileMeta f, String action) {
        if (f.level() < 0 || f.level() >= numberOfLevels) {
            throw new IllegalStateException("Cannot " + action + ": file " + f.fileName() + " names level "
                    + f.level() + ", outside 0.." + maxLevel());
        }
    }

    private void checkDisjoint(int level, List<DataFileMeta> files, String action) {
        for (int i = 1; i < files.size(); i++) {
            DataFileMeta prev = files.get(i - 1);
            DataFileMeta cur = files.get(i);
            if (keyComparator.compare(prev.maxKey(), cur.minKey()) >= 0) {
                throw new IllegalStateException("Cannot " + action + ": files " + prev.fileName() + " and "
                        + cur.fileName() + " overlap in key range on level " + level
                        + ", which must be one sorted run");
            }
        }
    }

    private static void checkUniqueNames(List<List<DataFileMeta>> levels, String action) {
        Set<String> names = new HashSet<>();
        for (List<DataFileMeta> files : levels) {
            for (DataFileMeta f : files) {
                if (!names.add(f.fileName())) {
                    throw new IllegalStateException(
                            "Cannot " + action + ": file " + f.fileName() + " would be live twice");
                }
            }
        }
    }
}
