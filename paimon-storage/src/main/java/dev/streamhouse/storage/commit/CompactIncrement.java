package dev.streamhouse.storage.commit;

import dev.streamhouse.storage.index.IndexFileMeta;
import dev.streamhouse.storage.manifest.DataFileMeta;

import java.util.List;

/**
 * What compaction changed in a bucket: the files it replaced, their replacements, its changelog, and
 * the index files it replaced (a bucket's deletion-vector index file, which Paimon commits with the
 * COMPACT snapshot).
 */
public record CompactIncrement(List<DataFileMeta> compactBefore, List<DataFileMeta> compactAfter,
        List<DataFileMeta> changelogFiles, List<IndexFileMeta> newIndexFiles, List<IndexFileMeta> deletedIndexFiles) {

    public static final CompactIncrement EMPTY = new CompactIncrement(List.of(), List.of(), List.of());

    public CompactIncrement {
        compactBefore = List.copyOf(compactBefore);
        compactAfter = List.copyOf(compactAfter);
        changelogFiles = List.copyOf(changelogFiles);
        newIndexFiles = List.copyOf(newIndexFiles);
        deletedIndexFiles = List.copyOf(deletedIndexFiles);
    }

    /** An increment that changes no index file. */
    public CompactIncrement(List<DataFileMeta> compactBefore, List<DataFileMeta> compactAfter,
            List<DataFileMeta> changelogFiles) {
        this(compactBefore, compactAfter, changelogFiles, List.of(), List.of());
    }

    public boolean isEmpty() {
        return compactBefore.isEmpty() && compactAfter.isEmpty() && changelogFiles.isEmpty()
                && newIndexFiles.isEmpty() && deletedIndexFiles.isEmpty();
    }
}
