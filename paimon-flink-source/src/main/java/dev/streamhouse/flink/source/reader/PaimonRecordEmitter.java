package dev.streamhouse.flink.source.reader;

import dev.streamhouse.flink.source.data.FlinkRowData;
import dev.streamhouse.flink.source.split.PaimonSplitState;
import org.apache.flink.api.connector.source.SourceOutput;
import org.apache.flink.connector.base.source.reader.RecordEmitter;
import org.apache.flink.table.data.RowData;

/**
 * Emits the rows of a {@link RowChunk}, each as a {@link FlinkRowData} view of its own, and counts each
 * in the split's state, so a checkpoint (taken between chunks, never inside one) records exactly the
 * rows that went downstream. Rows beyond the limit are dropped uncounted. Runs in the task thread.
 */
final class PaimonRecordEmitter implements RecordEmitter<RowChunk, RowData, PaimonSplitState> {
    private final RecordLimiter limiter;

    PaimonRecordEmitter(RecordLimiter limiter) {
        this.limiter = limiter;
    }

    @Override
    public void emitRecord(RowChunk rows, SourceOutput<RowData> output, PaimonSplitState splitState) {
        for (int i = 0, n = rows.size(); i < n; i++) {
            if (!limiter.tryAcquire()) {
                return;
            }
            output.collect(new FlinkRowData(rows.row(i)));
            splitState.recordEmitted();
        }
    }
}
