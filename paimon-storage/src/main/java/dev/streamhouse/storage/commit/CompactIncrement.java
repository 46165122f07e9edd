package dev.streamhouse.storage.commit;

import dev.streamhouse.storage.manifest.DataFileMeta;

import java.util.List;

/** What compaction changed in a bucket: the files it replaced, their replacements, its changelog. */
public record CompactIncrement(List<DataFileMeta> compactBefore, List<DataFileMeta> compactAfter,
        List<DataFileMeta> changelogFiles) {

    public static final CompactIncrement EMPTY = new CompactIncrement(List.of(), List.of(), List.of());

    public CompactIncrement {
        compactBefore = List.copyOf(compactBefore);
        compactAfter = List.copyOf(compactAfter);
        changelogFiles = List.copyOf(changelogFiles);
    }

    public boolean isEmpty() {
        return compactBefore.isEmpty() && compactAfter.isEmpty() && changelogFiles.isEmpty();
    }
}
