package dev.streamhouse.storage.commit;

import dev.streamhouse.storage.manifest.DataFileMeta;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What one commit did, as Apache Paimon 1.3's commit metrics count it: how long it took and how many
 * attempts, how many snapshots it made (APPEND and/or COMPACT, or an OVERWRITE) and the last one's id,
 * and, from its messages, the data files added and deleted (appended by writers, or rewritten by
 * compaction), changelog files, their records, the partitions and buckets written and the bytes
 * compaction read and wrote.
 *
 * @param lastSnapshotId the id of the last snapshot the commit made; -1 when it made none
 * @param deltaBytesAppended bytes of the data files writers added (what FLIP-33's {@code numBytesOut}
 *     of a sink counts, as Paimon counts it)
 */
public record CommitStats(long durationMillis, int attempts, int generatedSnapshots, long lastSnapshotId,
        int tableFilesAdded, int tableFilesDeleted, int tableFilesAppended, int tableFilesCommitCompacted,
        int changelogFilesAppended, int changelogFilesCommitCompacted, long deltaRecordsAppended,
        long changelogRecordsAppended, long deltaRecordsCommitCompacted, long changelogRecordsCommitCompacted,
        int partitionsWritten, int bucketsWritten, long compactionInputFileSize, long compactionOutputFileSize,
        long deltaBytesAppended) {

    /** The stats of a commit of {@code messages}. */
    public static CommitStats of(List<CommitMessage> messages, long durationMillis, int attempts,
            int generatedSnapshots, long lastSnapshotId) {
        int added = 0;
        int deleted = 0;
        int appended = 0;
        int compacted = 0;
        int changelogAppended = 0;
        int changelogCompacted = 0;
        long deltaRecords = 0;
        long changelogRecords = 0;
        long compactedRecords = 0;
        long compactedChangelogRecords = 0;
        long compactionInput = 0;
        long compactionOutput = 0;
        long deltaBytes = 0;
        Set<Object> partitions = new HashSet<>();
        Set<Object> buckets = new HashSet<>();
        for (CommitMessage m : messages) {
            List<DataFileMeta> newFiles = m.dataIncrement().newFiles();
            List<DataFileMeta> deletedFiles = m.dataIncrement().deletedFiles();
            List<DataFileMeta> before = m.compactIncrement().compactBefore();
            List<DataFileMeta> after = m.compactIncrement().compactAfter();
            added += newFiles.size() + after.size();
            deleted += deletedFiles.size() + before.size();
            appended += newFiles.size() + deletedFiles.size();
            compacted += before.size() + after.size();
            changelogAppended += m.dataIncrement().changelogFiles().size();
            changelogCompacted += m.compactIncrement().changelogFiles().size();
            deltaRecords += rows(newFiles);
            deltaBytes += bytes(newFiles);
            changelogRecords += rows(m.dataIncrement().changelogFiles());
            compactedRecords += rows(after);
            compactedChangelogRecords += rows(m.compactIncrement().changelogFiles());
            compactionInput += bytes(before);
            compactionOutput += bytes(after);
            if (!newFiles.isEmpty() || !deletedFiles.isEmpty() || !before.isEmpty() || !after.isEmpty()) {
                partitions.add(m.partition());
                buckets.add(List.of(m.partition(), m.bucket()));
            }
        }
        return new CommitStats(durationMillis, attempts, generatedSnapshots, lastSnapshotId, added, deleted, appended,
                compacted, changelogAppended, changelogCompacted, deltaRecords, changelogRecords, compactedRecords,
                compactedChangelogRecords, partitions.size(), buckets.size(), compactionInput, compactionOutput,
                deltaBytes);
    }

    private static long rows(List<DataFileMeta> files) {
        long rows = 0;
        for (DataFileMeta f : files) {
            rows += f.rowCount();
        }
        return rows;
    }

    private static long bytes(List<DataFileMeta> files) {
        long bytes = 0;
        for (DataFileMeta f : files) {
            bytes += f.fileSize();
        }
        return bytes;
    }
}
