package dev.streamhouse.storage.commit;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.manifest.DataFileMeta;

import java.util.List;

/**
 * What a writer produced for one (partition, bucket) since its last commit. Writers create them; a
 * committer turns a checkpoint's messages into snapshots (the data increment as APPEND, the compact
 * increment as COMPACT).
 *
 * <p>Engines carry messages in the binary form of
 * {@link dev.streamhouse.storage.serialization.CommitMessageSerializer}, never in Java serialization.
 *
 * @param totalBuckets the bucket count the files were written with; -1 for unaware/dynamic buckets
 */
public record CommitMessage(BinaryRow partition, int bucket, int totalBuckets, DataIncrement dataIncrement,
        CompactIncrement compactIncrement) {

    /** A message carrying only new data files. */
    public static CommitMessage ofNewFiles(BinaryRow partition, int bucket, int totalBuckets, List<DataFileMeta> files) {
        return new CommitMessage(partition, bucket, totalBuckets, DataIncrement.ofNewFiles(files), CompactIncrement.EMPTY);
    }

    public List<DataFileMeta> newFiles() {
        return dataIncrement.newFiles();
    }

    public boolean isEmpty() {
        return dataIncrement.isEmpty() && compactIncrement.isEmpty();
    }
}
