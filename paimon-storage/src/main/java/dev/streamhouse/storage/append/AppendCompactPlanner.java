package dev.streamhouse.storage.append;

import dev.streamhouse.storage.manifest.DataFileMeta;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Which files of an append table a compaction rewrites, by Apache Paimon 1.3.1's rules (read from
 * its bytecode; the rules, not the code, carry over). Plain values in, plain lists out; nothing is
 * read or written here.
 *
 * <p><b>A bucket of a fixed-bucket table</b> keeps its rows in sequence order, so it is compacted as
 * consecutive files of its sequence-ordered list:
 * <ul>
 *   <li>{@link #fullBucket full}: files of at least the target size at the head of the list stay;
 *       the rest are rewritten together when there are at least 3 of them and more of them are small
 *       (below the target size) than large, or always with {@code compaction.force-rewrite-all-files};
 *   <li>{@link #minorBucket minor}: a window slides over the list, adding one file at a time and
 *       then dropping its first file if it holds at least the target size; the first window of
 *       {@code compaction.min.file-num} files is rewritten.
 * </ul>
 *
 * <p><b>A partition of a bucket-unaware table</b> ({@code bucket} = -1) has no row order to keep.
 * {@link #packUnaware} takes its files smaller than 70 % of the target size, smallest first, into bins
 * that weigh each file its size plus {@code source.split.open-file-cost}; a bin of two or more files
 * weighing at least twice the target size is one rewrite, and what is left at the end is one more if
 * it holds {@code compaction.min.file-num} files.
 */
public final class AppendCompactPlanner {
    private final long targetFileSize;
    private final int minFileNum;
    private final long openFileCost;
    private final boolean forceRewriteAllFiles;

    /**
     * @param targetFileSize {@code target-file-size} of the append table, bytes
     * @param minFileNum {@code compaction.min.file-num}
     * @param openFileCost {@code source.split.open-file-cost}, bytes
     * @param forceRewriteAllFiles {@code compaction.force-rewrite-all-files}
     */
    public AppendCompactPlanner(long targetFileSize, int minFileNum, long openFileCost, boolean forceRewriteAllFiles) {
        if (targetFileSize <= 0 || minFileNum < 1 || openFileCost < 0) {
            throw new IllegalArgumentException("Cannot plan append compactions with target file size "
                    + targetFileSize + ", min file num " + minFileNum + " and open file cost " + openFileCost);
        }
        this.targetFileSize = targetFileSize;
        this.minFileNum = minFileNum;
        this.openFileCost = openFileCost;
        this.forceRewriteAllFiles = forceRewriteAllFiles;
    }

    /** The files a full compaction of a bucket rewrites (consecutive, in the given order), or none. */
    public List<DataFileMeta> fullBucket(List<DataFileMeta> bySequence) {
        List<DataFileMeta> rest = new ArrayList<>(bySequence);
        if (!forceRewriteAllFiles) {
            while (!rest.isEmpty() && rest.get(0).fileSize() >= targetFileSize) {
                rest.remove(0);
            }
        }
        int large = 0;
        int small = 0;
        for (DataFileMeta f : rest) {
            if (f.fileSize() >= targetFileSize) {
                large++;
            } else {
                small++;
            }
        }
        if (rest.isEmpty() || (!forceRewriteAllFiles && (small <= large || rest.size() < 3))) {
            return List.of();
        }
        return rest;
    }

    /** The files a minor compaction of a bucket rewrites (consecutive, in the given order), or none. */
    public List<DataFileMeta> minorBucket(List<DataFileMeta> bySequence) {
        Window w = minorWindow(bySequence);
        return w.complete() ? bySequence.subList(w.from(), w.to()) : List.of();
    }

    /**
     * Where the sliding window of a minor compaction stopped in {@code bySequence}: files
     * {@code [from, to)}; {@code complete} if it holds {@code compaction.min.file-num} files (then they
     * are the rewrite). The files before {@code from} were dropped from the window's head because the
     * window reached the target size with them; a writer does not consider them again.
     */
    public record Window(int from, int to, boolean complete) {}

    /** The window of {@link #minorBucket} over {@code bySequence}. */
    public Window minorWindow(List<DataFileMeta> bySequence) {
        int from = 0;
        long windowSize = 0;
        for (int to = 1; to <= bySequence.size(); to++) {
            windowSize += bySequence.get(to - 1).fileSize();
            if (to - from >= minFileNum) {
                return new Window(from, to, true);
            }
            if (windowSize >= targetFileSize) {
                windowSize -= bySequence.get(from).fileSize();
                from++;
            }
        }
        return new Window(from, bySequence.size(), false);
    }

    /** Whether a full compaction of a bucket with {@code files} live files is worth starting at all. */
    public boolean fullBucketMayCompact(int files) {
        return files > 0 && (forceRewriteAllFiles || files >= 3);
    }

    /** The files of a bucket-unaware table's partition that compaction considers: below 70 % of the target size. */
    public List<DataFileMeta> smallUnawareFiles(List<DataFileMeta> files) {
        long compactionFileSize = targetFileSize / 10 * 7;
        List<DataFileMeta> small = new ArrayList<>();
        for (DataFileMeta f : files) {
            if (f.fileSize() < compactionFileSize) {
                small.add(f);
            }
        }
        return small;
    }

    /** The rewrites of one partition of a bucket-unaware table: groups of its files, each rewritten together. */
    public List<List<DataFileMeta>> packUnaware(List<DataFileMeta> files) {
        List<DataFileMeta> small = smallUnawareFiles(files);
        small.sort(Comparator.comparingLong(DataFileMeta::fileSize));
        List<List<DataFileMeta>> out = new ArrayList<>();
        List<DataFileMeta> bin = new ArrayList<>();
        long weight = 0;
        for (DataFileMeta f : small) {
            bin.add(f);
            weight += f.fileSize() + openFileCost;
            if (bin.size() > 1 && weight >= targetFileSize * 2) {
                out.add(bin);
                bin = new ArrayList<>();
                weight = 0;
            }
        }
        if (bin.size() >= minFileNum) {
            out.add(bin);
        }
        return out;
    }
}
