package dev.streamhouse.flink.common.metrics;

import dev.streamhouse.storage.commit.CommitStats;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.Histogram;

import java.util.function.ToLongFunction;

/**
 * The {@code commit} metrics of a table in its committer: each {@link CommitStats} the table's commit
 * reports becomes the value of the {@code last*} gauges and a value of the {@code commitDuration}
 * histogram. Before the first commit the gauges read 0 (the snapshot id -1). Thread-safe for one
 * reporting thread and any reading threads.
 */
public final class CommitMetrics {
    private static final CommitStats NONE = CommitStats.of(java.util.List.of(), 0, 0, 0, -1);

    private final Histogram durations;
    private volatile CommitStats last = NONE;
    private volatile long lastFreshness;
    private Counter recordsOut;
    private Counter bytesOut;

    public CommitMetrics(TableMetricGroup group) {
        gauge(group, TableMetric.LAST_COMMIT_DURATION, CommitStats::durationMillis);
        durations = group.histogram(TableMetric.COMMIT_DURATION);
        gauge(group, TableMetric.LAST_COMMIT_ATTEMPTS, CommitStats::attempts);
        gauge(group, TableMetric.LAST_TABLE_FILES_ADDED, CommitStats::tableFilesAdded);
        gauge(group, TableMetric.LAST_TABLE_FILES_DELETED, CommitStats::tableFilesDeleted);
        gauge(group, TableMetric.LAST_TABLE_FILES_APPENDED, CommitStats::tableFilesAppended);
        gauge(group, TableMetric.LAST_TABLE_FILES_COMMIT_COMPACTED, CommitStats::tableFilesCommitCompacted);
        gauge(group, TableMetric.LAST_CHANGELOG_FILES_APPENDED, CommitStats::changelogFilesAppended);
        gauge(group, TableMetric.LAST_CHANGELOG_FILES_COMMIT_COMPACTED, CommitStats::changelogFilesCommitCompacted);
        gauge(group, TableMetric.LAST_GENERATED_SNAPSHOTS, CommitStats::generatedSnapshots);
        gauge(group, TableMetric.LAST_DELTA_RECORDS_APPENDED, CommitStats::deltaRecordsAppended);
        gauge(group, TableMetric.LAST_CHANGELOG_RECORDS_APPENDED, CommitStats::changelogRecordsAppended);
        gauge(group, TableMetric.LAST_DELTA_RECORDS_COMMIT_COMPACTED, CommitStats::deltaRecordsCommitCompacted);
        gauge(group, TableMetric.LAST_CHANGELOG_RECORDS_COMMIT_COMPACTED,
                CommitStats::changelogRecordsCommitCompacted);
        gauge(group, TableMetric.LAST_PARTITIONS_WRITTEN, CommitStats::partitionsWritten);
        gauge(group, TableMetric.LAST_BUCKETS_WRITTEN, CommitStats::bucketsWritten);
        gauge(group, TableMetric.LAST_COMPACTION_INPUT_FILE_SIZE, CommitStats::compactionInputFileSize);
        gauge(group, TableMetric.LAST_COMPACTION_OUTPUT_FILE_SIZE, CommitStats::compactionOutputFileSize);
        gauge(group, TableMetric.LAST_COMMITTED_SNAPSHOT_ID, CommitStats::lastSnapshotId);
        group.gauge(TableMetric.LAST_COMMIT_FRESHNESS, () -> lastFreshness);
    }

    private void gauge(TableMetricGroup group, TableMetric metric, ToLongFunction<CommitStats> value) {
        group.gauge(metric, () -> value.applyAsLong(last));
    }

    /**
     * Also counts what commits made visible in the committer's FLIP-33 sink metrics
     * ({@code numRecordsOut}, {@code numBytesOut} of its {@code OperatorIOMetricGroup}): the rows and bytes
     * of the data files writers added, as Paimon's committer counts them.
     */
    public CommitMetrics withSinkCounters(Counter recordsOut, Counter bytesOut) {
        this.recordsOut = recordsOut;
        this.bytesOut = bytesOut;
        return this;
    }

    /** A commit of the table returned normally. */
    public void report(CommitStats stats) {
        last = stats;
        durations.update(stats.durationMillis());
        if (recordsOut != null) {
            recordsOut.inc(stats.deltaRecordsAppended());
            bytesOut.inc(stats.deltaBytesAppended());
        }
    }

    /**
     * The commit of a checkpoint's data ended {@code millis} after that checkpoint started (checkpoint
     * start to data visible).
     */
    public void reportFreshness(long millis) {
        lastFreshness = millis;
    }
}
