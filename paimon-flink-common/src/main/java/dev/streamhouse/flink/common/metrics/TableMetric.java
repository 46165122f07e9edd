package dev.streamhouse.flink.common.metrics;

/**
 * Every table metric this store registers in Flink, declared once: its group and name (Apache Paimon
 * 1.3's, so dashboards built for Paimon keep working), its kind and what it measures. A metric's full
 * name is {@code <operator scope>.paimon.table.<table>.<group>.<name>}, {@code <table>} being the
 * table's name without its database, as Paimon names it.
 */
public enum TableMetric {
    LAST_COMMIT_DURATION(Group.COMMIT, "lastCommitDuration", Kind.GAUGE, "Milliseconds the last commit took."),
    COMMIT_DURATION(Group.COMMIT, "commitDuration", Kind.HISTOGRAM,
            "Milliseconds of the last commits (a window of " + WindowHistogram.DEFAULT_WINDOW + ")."),
    LAST_COMMIT_ATTEMPTS(Group.COMMIT, "lastCommitAttempts", Kind.GAUGE,
            "Attempts the last commit needed (more than one per snapshot when it lost races to other writers)."),
    LAST_TABLE_FILES_ADDED(Group.COMMIT, "lastTableFilesAdded", Kind.GAUGE,
            "Data files the last commit added (written or produced by compaction)."),
    LAST_TABLE_FILES_DELETED(Group.COMMIT, "lastTableFilesDeleted", Kind.GAUGE,
            "Data files the last commit deleted (rewritten by compaction)."),
    LAST_TABLE_FILES_APPENDED(Group.COMMIT, "lastTableFilesAppended", Kind.GAUGE,
            "Data files writers added or removed in the last commit (not by compaction)."),
    LAST_TABLE_FILES_COMMIT_COMPACTED(Group.COMMIT, "lastTableFilesCommitCompacted", Kind.GAUGE,
            "Data files compaction read or wrote in the last commit."),
    LAST_CHANGELOG_FILES_APPENDED(Group.COMMIT, "lastChangelogFilesAppended", Kind.GAUGE,
            "Changelog files writers produced in the last commit."),
    LAST_CHANGELOG_FILES_COMMIT_COMPACTED(Group.COMMIT, "lastChangelogFileCommitCompacted", Kind.GAUGE,
            "Changelog files compaction produced in the last commit (Paimon's name, with 'File')."),
    LAST_GENERATED_SNAPSHOTS(Group.COMMIT, "lastGeneratedSnapshots", Kind.GAUGE,
            "Snapshots the last commit made (an APPEND and a COMPACT one at most)."),
    LAST_DELTA_RECORDS_APPENDED(Group.COMMIT, "lastDeltaRecordsAppended", Kind.GAUGE,
            "Rows of the data files writers added in the last commit."),
    LAST_CHANGELOG_RECORDS_APPENDED(Group.COMMIT, "lastChangelogRecordsAppended", Kind.GAUGE,
            "Rows of the changelog files writers produced in the last commit."),
    LAST_DELTA_RECORDS_COMMIT_COMPACTED(Group.COMMIT, "lastDeltaRecordsCommitCompacted", Kind.GAUGE,
            "Rows of the data files compaction wrote in the last commit."),
    LAST_CHANGELOG_RECORDS_COMMIT_COMPACTED(Group.COMMIT, "lastChangelogRecordsCommitCompacted", Kind.GAUGE,
            "Rows of the changelog files compaction produced in the last commit."),
    LAST_PARTITIONS_WRITTEN(Group.COMMIT, "lastPartitionsWritten", Kind.GAUGE,
            "Partitions whose data files the last commit changed."),
    LAST_BUCKETS_WRITTEN(Group.COMMIT, "lastBucketsWritten", Kind.GAUGE,
            "Buckets whose data files the last commit changed."),
    LAST_COMPACTION_INPUT_FILE_SIZE(Group.COMMIT, "lastCompactionInputFileSize", Kind.GAUGE,
            "Bytes of the data files compaction rewrote in the last commit."),
    LAST_COMPACTION_OUTPUT_FILE_SIZE(Group.COMMIT, "lastCompactionOutputFileSize", Kind.GAUGE,
            "Bytes of the data files compaction wrote in the last commit."),
    LAST_COMMITTED_SNAPSHOT_ID(Group.COMMIT, "lastCommittedSnapshotId", Kind.GAUGE,
            "Id of the last snapshot this committer made (-1 before its first); not in Paimon."),
    LAST_COMMIT_FRESHNESS(Group.COMMIT, "lastCommitFreshness", Kind.GAUGE,
            "Milliseconds from the start of the checkpoint whose data the last commit made visible to the end "
                    + "of that commit: how stale newly committed data is when readers can first see it; not in "
                    + "Paimon."),

    LAST_SCAN_DURATION(Group.SCAN, "lastScanDuration", Kind.GAUGE,
            "Milliseconds the last planning of the read took (one snapshot's files)."),
    SCAN_DURATION(Group.SCAN, "scanDuration", Kind.HISTOGRAM,
            "Milliseconds of the last plannings (a window of " + WindowHistogram.DEFAULT_WINDOW + ")."),
    LAST_SCANNED_MANIFESTS(Group.SCAN, "lastScannedManifests", Kind.GAUGE,
            "Manifest files the last planning read (manifests pruned by partition or bucket are not read)."),
    LAST_SCAN_SKIPPED_TABLE_FILES(Group.SCAN, "lastScanSkippedTableFiles", Kind.GAUGE,
            "Entries of the read manifests that the last planning's filters left out: files of other partitions"
                    + " and buckets (their added and deleted entries alike, including those passed over by block)"
                    + " and files pruned by their statistics."),
    LAST_SCAN_RESULTED_TABLE_FILES(Group.SCAN, "lastScanResultedTableFiles", Kind.GAUGE,
            "Data files the last planning selected for reading."),
    LAST_SCANNED_SNAPSHOT_ID(Group.SCAN, "lastScannedSnapshotId", Kind.GAUGE,
            "Id of the snapshot the last planning read (-1 before the first); Paimon's name since 1.4."),
    SNAPSHOTS_BEHIND_LATEST(Group.SCAN, "snapshotsBehindLatest", Kind.GAUGE,
            "Streaming reads: snapshots committed that the read has not planned yet (0 when caught up); not in "
                    + "Paimon."),
    UNREAD_SNAPSHOT_AGE(Group.SCAN, "unreadSnapshotAge", Kind.GAUGE,
            "Streaming reads: milliseconds since the oldest snapshot the read has not planned yet was committed "
                    + "(0 when caught up): how stale the read is; not in Paimon."),

    NUM_WRITERS(Group.WRITER_BUFFER, "numWriters", Kind.GAUGE,
            "Writers this task has open: one per (partition, bucket) it writes."),
    BUFFER_PREEMPT_COUNT(Group.WRITER_BUFFER, "bufferPreemptCount", Kind.GAUGE,
            "Times a bucket's write buffer was flushed early to make room for another bucket's (primary-key "
                    + "tables)."),
    USED_WRITE_BUFFER_SIZE(Group.WRITER_BUFFER, "usedWriteBufferSizeByte", Kind.GAUGE,
            "Bytes of the task's write buffer ('write-buffer-size') in use (primary-key tables)."),
    TOTAL_WRITE_BUFFER_SIZE(Group.WRITER_BUFFER, "totalWriteBufferSizeByte", Kind.GAUGE,
            "Bytes of the task's write buffer ('write-buffer-size', in whole pages; primary-key tables)."),

    MAX_LEVEL0_FILE_COUNT(Group.COMPACTION, "maxLevel0FileCount", Kind.GAUGE,
            "Most level-0 files in one bucket the task writes."),
    AVG_LEVEL0_FILE_COUNT(Group.COMPACTION, "avgLevel0FileCount", Kind.GAUGE,
            "Level-0 files per bucket the task writes, on average."),
    COMPACTION_THREAD_BUSY(Group.COMPACTION, "compactionThreadBusy", Kind.GAUGE,
            "Percentage of the last minute the task's compaction thread spent compacting."),
    AVG_COMPACTION_TIME(Group.COMPACTION, "avgCompactionTime", Kind.GAUGE,
            "Milliseconds a compaction took, on average over the last 100."),
    COMPACTION_COMPLETED_COUNT(Group.COMPACTION, "compactionCompletedCount", Kind.COUNTER,
            "Compactions that ended normally."),
    COMPACTION_TOTAL_COUNT(Group.COMPACTION, "compactionTotalCount", Kind.COUNTER,
            "Compactions started."),
    COMPACTION_QUEUED_COUNT(Group.COMPACTION, "compactionQueuedCount", Kind.COUNTER,
            "Compactions started and not ended yet (running or waiting for the compaction thread)."),
    MAX_COMPACTION_INPUT_SIZE(Group.COMPACTION, "maxCompactionInputSize", Kind.GAUGE,
            "Bytes the largest of the last 100 compactions read; Paimon's name since 1.4."),
    AVG_COMPACTION_INPUT_SIZE(Group.COMPACTION, "avgCompactionInputSize", Kind.GAUGE,
            "Bytes a compaction read, on average over the last 100; Paimon's name since 1.4."),
    MAX_COMPACTION_OUTPUT_SIZE(Group.COMPACTION, "maxCompactionOutputSize", Kind.GAUGE,
            "Bytes the largest of the last 100 compactions wrote."),
    AVG_COMPACTION_OUTPUT_SIZE(Group.COMPACTION, "avgCompactionOutputSize", Kind.GAUGE,
            "Bytes a compaction wrote, on average over the last 100."),
    MAX_TOTAL_FILE_SIZE(Group.COMPACTION, "maxTotalFileSize", Kind.GAUGE,
            "Bytes of data files of the largest bucket the task writes."),
    AVG_TOTAL_FILE_SIZE(Group.COMPACTION, "avgTotalFileSize", Kind.GAUGE,
            "Bytes of data files per bucket the task writes, on average."),
    MAX_SORTED_RUN_COUNT(Group.COMPACTION, "maxSortedRunCount", Kind.GAUGE,
            "Most sorted runs in one bucket the task writes (compare 'num-sorted-run.compaction-trigger' and "
                    + "'num-sorted-run.stop-trigger'); not in Paimon."),
    BUCKETS_ABOVE_COMPACTION_TRIGGER(Group.COMPACTION, "bucketsAboveCompactionTrigger", Kind.GAUGE,
            "Buckets with more sorted runs than 'num-sorted-run.compaction-trigger': compaction debt; not in "
                    + "Paimon."),
    BUCKETS_ABOVE_STOP_TRIGGER(Group.COMPACTION, "bucketsAboveStopTrigger", Kind.GAUGE,
            "Buckets with more sorted runs than 'num-sorted-run.stop-trigger', whose writes wait for compaction; "
                    + "not in Paimon."),
    LEVEL0_FILE_SIZE(Group.COMPACTION, "level0FileSize", Kind.GAUGE,
            "Bytes of level-0 files in the buckets the task writes: data waiting for compaction; not in Paimon."),
    STOP_TRIGGER_WAIT_TIME(Group.COMPACTION, "stopTriggerWaitTime", Kind.GAUGE,
            "Milliseconds the task's writes waited for compaction because a bucket reached "
                    + "'num-sorted-run.stop-trigger', in total: back pressure from compaction; not in Paimon."),

    LOOKUP_COUNT(Group.LOOKUP, "lookupCount", Kind.COUNTER,
            "Lookups of the join task into its local copy of the table (Paimon 1.3 has no lookup group); not in "
                    + "Paimon."),
    LOOKUP_HIT_COUNT(Group.LOOKUP, "lookupHitCount", Kind.COUNTER,
            "Lookups whose key the table has; not in Paimon."),
    LOOKUP_MISS_COUNT(Group.LOOKUP, "lookupMissCount", Kind.COUNTER,
            "Lookups whose key the table does not have; not in Paimon."),
    LOOKUP_ROW_COUNT(Group.LOOKUP, "lookupRowCount", Kind.COUNTER,
            "Rows the lookups returned; not in Paimon."),
    RECENT_KEYS_HIT_COUNT(Group.LOOKUP, "recentKeysHitCount", Kind.COUNTER,
            "Lookups answered by the in-memory cache of recent keys ('lookup.cache-rows') in front of a copy on "
                    + "disk; not in Paimon."),
    LOOKUP_REFRESH_COUNT(Group.LOOKUP, "refreshCount", Kind.COUNTER,
            "Refreshes of the local copy with the table's new snapshots; not in Paimon."),
    LAST_LOOKUP_REFRESH_DURATION(Group.LOOKUP, "lastRefreshDuration", Kind.GAUGE,
            "Milliseconds the last refresh took; not in Paimon."),
    LOOKUP_LOAD_DURATION(Group.LOOKUP, "loadDuration", Kind.GAUGE,
            "Milliseconds the first load of the local copy took; not in Paimon."),
    LOOKUP_SNAPSHOT_ID(Group.LOOKUP, "lastLoadedSnapshotId", Kind.GAUGE,
            "Id of the newest snapshot the local copy holds (0 for none); not in Paimon."),
    LOOKUP_DISK_SIZE(Group.LOOKUP, "cacheDiskSize", Kind.GAUGE,
            "Bytes of local disk the copy uses; not in Paimon."),

    LAST_EXPIRATION_TIME(Group.EXPIRATION, "lastExpirationTime", Kind.GAUGE,
            "When the last expiration after a commit ended (epoch millis; 0 before the first); not in Paimon."),
    LAST_EXPIRATION_DURATION(Group.EXPIRATION, "lastExpirationDuration", Kind.GAUGE,
            "Milliseconds the last expiration ran; not in Paimon."),
    EXPIRED_SNAPSHOT_COUNT(Group.EXPIRATION, "expiredSnapshotCount", Kind.COUNTER,
            "Snapshots expired (with the files only they used) since the committer started; not in Paimon."),
    EXPIRED_FILE_COUNT(Group.EXPIRATION, "expiredFileCount", Kind.COUNTER,
            "Files (data, changelog, manifest) deleted with the expired snapshots since the committer started; not "
                    + "in Paimon."),
    EXPIRED_CHANGELOG_COUNT(Group.EXPIRATION, "expiredChangelogCount", Kind.COUNTER,
            "Long-lived changelogs ('changelog.num-retained.*') expired since the committer started; not in "
                    + "Paimon."),
    EXPIRED_CONSUMER_COUNT(Group.EXPIRATION, "expiredConsumerCount", Kind.COUNTER,
            "Consumers removed after 'consumer.expiration-time' since the committer started; not in Paimon."),
    EXPIRATION_FAILURE_COUNT(Group.EXPIRATION, "expirationFailureCount", Kind.COUNTER,
            "Expirations that failed part-way (the next one finishes their work); not in Paimon.");

    /** The metric groups under {@code paimon.table.<table>}. */
    public enum Group {
        COMMIT("commit"),
        SCAN("scan"),
        WRITER_BUFFER("writerBuffer"),
        COMPACTION("compaction"),
        LOOKUP("lookup"),
        EXPIRATION("expiration");

        private final String groupName;

        Group(String groupName) {
            this.groupName = groupName;
        }

        public String groupName() {
            return groupName;
        }
    }

    /** How a metric is reported. */
    public enum Kind {
        GAUGE,
        COUNTER,
        HISTOGRAM
    }

    private final Group group;
    private final String metricName;
    private final Kind kind;
    private final String description;

    TableMetric(Group group, String metricName, Kind kind, String description) {
        this.group = group;
        this.metricName = metricName;
        this.kind = kind;
        this.description = description;
    }

    public Group group() {
        return group;
    }

    public String metricName() {
        return metricName;
    }

    public Kind kind() {
        return kind;
    }

    public String description() {
        return description;
    }
}
