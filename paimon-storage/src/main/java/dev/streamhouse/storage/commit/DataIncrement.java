package dev.streamhouse.storage.commit;

import dev.streamhouse.storage.index.IndexFileMeta;
import dev.streamhouse.storage.manifest.DataFileMeta;

import java.util.List;

/**
 * What a writer added for a bucket: new data files, data files it deleted, input changelog files,
 * and index files it replaced (e.g. a dynamic bucket's hash index).
 */
public record DataIncrement(
        List<DataFileMeta> newFiles,
        List<DataFileMeta> deletedFiles,
        List<DataFileMeta> changelogFiles,
        List<IndexFileMeta> newIndexFiles,
        List<IndexFileMeta> deletedIndexFiles) {

    public static final DataIncrement EMPTY = new DataIncrement(List.of(), List.of(), List.of(), List.of(), List.of());

    public DataIncrement {
        newFiles = List.copyOf(newFiles);
        deletedFiles = List.copyOf(deletedFiles);
        changelogFiles = List.copyOf(changelogFiles);
        newIndexFiles = List.copyOf(newIndexFiles);
        deletedIndexFiles = List.copyOf(deletedIndexFiles);
    }

    public static DataIncrement ofNewFiles(List<DataFileMeta> files) {
        return new DataIncrement(files, List.of(), List.of(), List.of(), List.of());
    }

    public boolean isEmpty() {
        return newFiles.isEmpty() && deletedFiles.isEmpty() && changelogFiles.isEmpty()
                && newIndexFiles.isEmpty() && deletedIndexFiles.isEmpty();
    }
}
