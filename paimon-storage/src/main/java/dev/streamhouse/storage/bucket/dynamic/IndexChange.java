package dev.streamhouse.storage.bucket.dynamic;

import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.index.IndexFileMeta;
import dev.streamhouse.storage.index.IndexManifestEntry;
import dev.streamhouse.storage.manifest.FileKind;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A new, complete hash index file for one (partition, bucket) and the file it replaces.
 *
 * @param newFile the new file, already written; holds every hash of the bucket
 * @param replacedFile the bucket's previous file, or null if the bucket had none
 */
public record IndexChange(BinaryRow partition, int bucket, IndexFileMeta newFile, IndexFileMeta replacedFile) {

    public IndexChange {
        Objects.requireNonNull(partition, "partition");
        Objects.requireNonNull(newFile, "newFile");
    }

    /**
     * The commit's index manifest entries for this change: {@code DELETE} of the replaced file (if
     * any), then {@code ADD} of the new one. Applied to the previous index manifest by key
     * (partition, bucket, HASH) as docs/format.md §5.6 describes, they leave exactly the new file.
     */
    public List<IndexManifestEntry> manifestEntries() {
        List<IndexManifestEntry> entries = new ArrayList<>(2);
        if (replacedFile != null) {
            entries.add(new IndexManifestEntry(FileKind.DELETE, partition, bucket, replacedFile));
        }
        entries.add(new IndexManifestEntry(FileKind.ADD, partition, bucket, newFile));
        return entries;
    }
}
