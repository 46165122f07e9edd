package dev.streamhouse.storage.snapshot;

import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.fs.Path;

import java.io.IOException;

/**
 * The step that makes a new snapshot visible: writes {@code snapshot-<id>} so that of several
 * concurrent committers of the same id exactly one succeeds and readers never see a partial file.
 * That is the file system's create-if-absent ({@link #createIfAbsent}): a hard link on local disk, a
 * rename on HDFS, a conditional PUT on S3. A lock-based publisher for stores without any of these
 * would plug in here.
 */
public interface SnapshotPublisher {

    /**
     * @return true if this call created the file, false if it already existed (another committer won)
     * @throws IOException if the outcome is unknown: the file may or may not have been created
     */
    boolean publish(Path snapshotFile, byte[] content) throws IOException;

    /** Publishing by {@link FileIO#createIfAbsent}, atomic on every file IO this store has. */
    static SnapshotPublisher createIfAbsent(FileIO fileIO) {
        return fileIO::createIfAbsent;
    }
}
