package dev.streamhouse.flink.source.reader;

import dev.streamhouse.flink.source.data.FlinkRowData;
import dev.streamhouse.flink.source.split.PaimonSplitState;
import dev.streamhouse.storage.data.InternalRow;
import org.apache.flink.api.connector.source.SourceOutput;
import org.apache.flink.connector.base.source.reader.RecordEmitter;
import org.apache.flink.table.data.RowData;

/**
 * Emits each copied row as a {@link FlinkRowData} view of its own and counts it in the split's state,
 * so a checkpoint records exactly the rows that went downstream. Rows beyond the limit are dropped
 * uncounted. Runs in the task thread.
 */
final class PaimonRecordEmitter implements RecordEmitter<InternalRow, RowData, PaimonSplitState> {
    private final RecordLimiter limiter;

    PaimonRecordEmitter(RecordLimiter limiter) {
        this.limiter = limiter;
    }

    @Override
    public void emitRecord(InternalRow row, SourceOutput<RowData> output, PaimonSplitState splitState) {
        if (!limiter.tryAcquire()) {
            return;
        }
        output.collect(new FlinkRowData(row));
        splitState.recordEmitted();
    }
}
