package dev.streamhouse.storage.table.sink;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.manifest.DataFileMeta;

import java.io.Serializable;
import java.util.List;

/**
 * What a writer produced for one (partition, bucket) since its last commit: new data files, changelog
 * files and compaction results. Writers create them; a committer turns a checkpoint's messages into one
 * snapshot.
 *
 * @param totalBuckets the bucket count the files were written with; -1 for unaware/dynamic buckets
 */
public record CommitMessage(
        BinaryRow partition,
        int bucket,
        int totalBuckets,
        List<DataFileMeta> newFiles,
        List<DataFileMeta> deletedFiles,
        List<DataFileMeta> changelogFiles,
        List<DataFileMeta> compactBefore,
        List<DataFileMeta> compactAfter,
        List<DataFileMeta> compactChangelogFiles) implements Serializable {

    public CommitMessage {
        newFiles = List.copyOf(newFiles);
        deletedFiles = List.copyOf(deletedFiles);
        changelogFiles = List.copyOf(changelogFiles);
        compactBefore = List.copyOf(compactBefore);
        compactAfter = List.copyOf(compactAfter);
        compactChangelogFiles = List.copyOf(compactChangelogFiles);
    }

    /** A message carrying only new data files. */
    public static CommitMessage ofNewFiles(BinaryRow partition, int bucket, int totalBuckets, List<DataFileMeta> files) {
        return new CommitMessage(partition, bucket, totalBuckets, files, List.of(), List.of(), List.of(), List.of(), List.of());
    }

    public boolean isEmpty() {
        return newFiles.isEmpty() && deletedFiles.isEmpty() && changelogFiles.isEmpty()
                && compactBefore.isEmpty() && compactAfter.isEmpty() && compactChangelogFiles.isEmpty();
    }
}
