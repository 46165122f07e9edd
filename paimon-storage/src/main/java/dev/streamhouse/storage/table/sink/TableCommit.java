package dev.streamhouse.storage.table.sink;

import dev.streamhouse.storage.fs.FileIO;
import dev.streamhouse.storage.io.TablePaths;
import dev.streamhouse.storage.manifest.DataFileMeta;
import dev.streamhouse.storage.operation.FileStoreCommit;
import dev.streamhouse.storage.operation.ManifestCommittable;

import java.util.List;
import java.util.Map;

/**
 * Commits writers' messages as snapshots under one commit user. Streaming callers pass a
 * monotonically increasing identifier (the checkpoint id) and, after a restart, ask
 * {@link #filterCommitted(List)} which identifiers still need committing. See
 * {@link FileStoreCommit} for the failure types.
 */
public class TableCommit implements AutoCloseable {
    private final FileStoreCommit commit;
    private final FileIO fileIO;
    private final TablePaths paths;

    public TableCommit(FileStoreCommit commit, FileIO fileIO, TablePaths paths) {
        this.commit = commit;
        this.fileIO = fileIO;
        this.paths = paths;
    }

    public String commitUser() {
        return commit.commitUser();
    }

    /** Commits the messages as the snapshot(s) of {@code identifier}. */
    public void commit(long identifier, List<CommitMessage> messages) {
        commit.commit(ManifestCommittable.of(identifier, messages));
    }

    /** Commits with a watermark and log offsets. */
    public void commit(long identifier, Long watermark, Map<Integer, Long> logOffsets, List<CommitMessage> messages) {
        commit.commit(new ManifestCommittable(identifier, watermark, logOffsets, messages));
    }

    /** The identifiers that this commit user has not committed yet. */
    public List<Long> filterCommitted(List<Long> identifiers) {
        return commit.filterCommitted(identifiers);
    }

    /**
     * Deletes the new data files of messages that will never be committed (e.g. a failed batch job).
     * Only call this when the messages are certainly not part of any snapshot.
     */
    public void abort(List<CommitMessage> messages) {
        for (CommitMessage m : messages) {
            java.util.Set<String> upgraded = new java.util.HashSet<>();
            m.compactIncrement().compactBefore().forEach(f -> upgraded.add(f.fileName()));
            for (List<DataFileMeta> files : List.of(m.dataIncrement().newFiles(), m.dataIncrement().changelogFiles(),
                    m.compactIncrement().compactAfter(), m.compactIncrement().changelogFiles())) {
                for (DataFileMeta f : files) {
                    // An upgraded file keeps its name: it is still the live input, never delete it.
                    if (!upgraded.contains(f.fileName())) {
                        fileIO.deleteQuietly(paths.dataFile(m.partition(), m.bucket(), f.fileName()));
                    }
                }
            }
            m.dataIncrement().newIndexFiles().forEach(f -> fileIO.deleteQuietly(
                    new dev.streamhouse.storage.fs.Path(paths.indexDir(), f.fileName())));
        }
    }

    @Override
    public void close() {}
}
