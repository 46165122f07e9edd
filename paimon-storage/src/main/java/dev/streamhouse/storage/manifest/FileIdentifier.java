package dev.streamhouse.storage.manifest;

import dev.streamhouse.storage.data.BinaryRow;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The identity of a file in manifests (docs/format.md §5.4): a DELETE entry cancels the ADD entry with the
 * same identity.
 */
public final class FileIdentifier {
    private final BinaryRow partition;
    private final int bucket;
    private final int level;
    private final String fileName;
    private final List<String> extraFiles;
    private final byte[] embeddedIndex;
    private final String externalPath;

    public FileIdentifier(BinaryRow partition, int bucket, DataFileMeta file) {
        this.partition = partition;
        this.bucket = bucket;
        this.level = file.level();
        this.fileName = file.fileName();
        this.extraFiles = file.extraFiles();
        this.embeddedIndex = file.embeddedIndex();
        this.externalPath = file.externalPath();
    }

    public String fileName() {
        return fileName;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof FileIdentifier)) {
            return false;
        }
        FileIdentifier t = (FileIdentifier) o;
        return bucket == t.bucket && level == t.level && fileName.equals(t.fileName)
                && partition.equals(t.partition) && extraFiles.equals(t.extraFiles)
                && Arrays.equals(embeddedIndex, t.embeddedIndex) && Objects.equals(externalPath, t.externalPath);
    }

    @Override
    public int hashCode() {
        return Objects.hash(partition, bucket, level, fileName);
    }

    @Override
    public String toString() {
        return "{partition=" + partition + ", bucket=" + bucket + ", level=" + level + ", file=" + fileName + "}";
    }
}
