package dev.streamhouse.flink.common.metrics;

import dev.streamhouse.storage.metrics.WriterStats;

/**
 * The {@code writerBuffer} and {@code compaction} metrics of a table in one writer task, read from the
 * {@link WriterStats} its writes report to ({@code TableWrite.reportTo}). The group is registered as
 * {@code writerBuffer}, as Apache Paimon's code registers it (its documentation says
 * {@code writeBuffer}), so dashboards built on Paimon's metrics find it.
 */
public final class WriterMetrics {
    private final WriterStats stats = new WriterStats();

    public WriterMetrics(TableMetricGroup group) {
        group.gauge(TableMetric.NUM_WRITERS, stats::openWriters);
        group.gauge(TableMetric.BUFFER_PREEMPT_COUNT, stats::bufferPreemptions);
        group.gauge(TableMetric.USED_WRITE_BUFFER_SIZE, stats::usedBufferBytes);
        group.gauge(TableMetric.TOTAL_WRITE_BUFFER_SIZE, stats::totalBufferBytes);

        group.gauge(TableMetric.MAX_LEVEL0_FILE_COUNT, stats::maxLevel0Files);
        group.gauge(TableMetric.AVG_LEVEL0_FILE_COUNT, stats::avgLevel0Files);
        group.gauge(TableMetric.COMPACTION_THREAD_BUSY, stats::compactionThreadBusyPercent);
        group.gauge(TableMetric.AVG_COMPACTION_TIME, stats::avgCompactionMillis);
        group.counter(TableMetric.COMPACTION_COMPLETED_COUNT, stats::compactionsCompleted);
        group.counter(TableMetric.COMPACTION_TOTAL_COUNT, stats::compactionsStarted);
        group.counter(TableMetric.COMPACTION_QUEUED_COUNT, stats::compactionsQueued);
        group.gauge(TableMetric.MAX_COMPACTION_INPUT_SIZE, stats::maxCompactionInputBytes);
        group.gauge(TableMetric.AVG_COMPACTION_INPUT_SIZE, stats::avgCompactionInputBytes);
        group.gauge(TableMetric.MAX_COMPACTION_OUTPUT_SIZE, stats::maxCompactionOutputBytes);
        group.gauge(TableMetric.AVG_COMPACTION_OUTPUT_SIZE, stats::avgCompactionOutputBytes);
        group.gauge(TableMetric.MAX_TOTAL_FILE_SIZE, stats::maxTotalFileBytes);
        group.gauge(TableMetric.AVG_TOTAL_FILE_SIZE, stats::avgTotalFileBytes);
        group.gauge(TableMetric.MAX_SORTED_RUN_COUNT, stats::maxSortedRuns);
        group.gauge(TableMetric.BUCKETS_ABOVE_COMPACTION_TRIGGER, stats::bucketsAboveCompactionTrigger);
        group.gauge(TableMetric.BUCKETS_ABOVE_STOP_TRIGGER, stats::bucketsAboveStopTrigger);
        group.gauge(TableMetric.LEVEL0_FILE_SIZE, stats::level0Bytes);
        group.gauge(TableMetric.STOP_TRIGGER_WAIT_TIME, stats::stopTriggerWaitMillis);
    }

    /** What the table's writes in this task report to: pass it to each new write's {@code reportTo}. */
    public WriterStats stats() {
        return stats;
    }
}
