package dev.streamhouse.storage.mergetree;

import dev.streamhouse.storage.manifest.DataFileMeta;

import java.util.List;

/**
 * Files of one bucket whose key ranges do not overlap, ordered by key: a level ≥ 1, or a single
 * level-0 file.
 */
public record SortedRun(List<DataFileMeta> files) {

    public SortedRun {
        files = List.copyOf(files);
    }

    public static SortedRun of(DataFileMeta file) {
        return new SortedRun(List.of(file));
    }

    public long totalSize() {
        long s = 0;
        for (DataFileMeta f : files) {
            s += f.fileSize();
        }
        return s;
    }

    public boolean isEmpty() {
        return files.isEmpty();
    }
}
