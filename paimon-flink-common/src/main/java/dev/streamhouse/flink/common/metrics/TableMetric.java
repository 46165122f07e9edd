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
                    + "Paimon.");

    /** The metric groups under {@code paimon.table.<table>}. */
    public enum Group {
        COMMIT("commit"),
        SCAN("scan"),
        WRITER_BUFFER("writerBuffer"),
        COMPACTION("compaction"),
        LOOKUP("lookup");

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
