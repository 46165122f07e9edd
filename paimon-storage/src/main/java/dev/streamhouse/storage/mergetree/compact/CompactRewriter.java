package dev.streamhouse.storage.mergetree.compact;

import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.mergetree.SortedRun;

import java.util.List;

/**
 * Does the file work of a compaction: merges sections of sorted runs into new files, or moves a
 * file to another level. The only part of compaction that touches storage.
 *
 * <p>Threading: called from a compaction thread, never concurrently for the same bucket; may be
 * interrupted when the compaction is cancelled. Errors: on any exception (including an interrupt)
 * the implementation deletes the files it wrote in that call; the input files are never touched.
 */
public interface CompactRewriter {

    /**
     * Merges {@code sections} into new files on {@code outputLevel}.
     *
     * @param sections key-ordered sections whose key ranges do not overlap each other; each a list of
     *     sorted runs whose records the merge function combines per key
     * @param dropDelete whether keys whose merged record is a retraction (−U/−D) are left out: true
     *     only when nothing older than the input exists in the bucket
     * @return before = every input file, after = the new files (all on {@code outputLevel}, key
     *     ranges inside the inputs' overall range, in key order, disjoint)
     */
    CompactResult rewrite(int outputLevel, boolean dropDelete, List<List<SortedRun>> sections)
            throws Exception;

    /**
     * This rewriter for one compaction, given the files of the bucket's levels above 0 that the
     * compaction does not touch: a rewriter that looks up older versions of keys
     * ({@link LookupCompactRewriter}) looks in those. The default ignores them.
     */
    default CompactRewriter forCompaction(List<DataFileMeta> outsideFiles) {
        return this;
    }

    /**
     * Moves {@code file} to {@code outputLevel} without rewriting its records. The default only
     * changes the level in the metadata; implementations may add work (e.g. a changelog).
     *
     * @return before = [file], after = [file on outputLevel]
     */
    default CompactResult upgrade(int outputLevel, DataFileMeta file) throws Exception {
        return new CompactResult(List.of(file), List.of(file.upgrade(outputLevel)));
    }

    /**
     * Deletes files that earlier {@link #rewrite} calls wrote for a compaction whose result will
     * never be applied (the compaction failed later, or was cancelled). Never called with input files
     * or upgraded files. Best effort: what is left behind is an orphan file, harmless to readers. The
     * default does nothing.
     */
    default void discardRewritten(List<DataFileMeta> written) throws Exception {}
}
