package dev.streamhouse.flink.source.reader;

import dev.streamhouse.flink.source.data.FlinkRowData;
import dev.streamhouse.flink.source.split.PaimonSplitState;
import dev.streamhouse.storage.data.columnar.ColumnarRow;
import org.apache.flink.api.connector.source.SourceOutput;
import org.apache.flink.connector.base.source.reader.RecordEmitter;
import org.apache.flink.table.data.RowData;

/**
 * Emits the rows of a {@link RowChunk} and counts each in the split's state, so a checkpoint (taken
 * between chunks, never inside one) records exactly the rows that went downstream. Rows beyond the
 * limit are dropped uncounted. Runs in the task thread.
 *
 * <p><b>One object for every row.</b> Each row goes out as the same {@link FlinkRowData} view, pointed
 * at the next row, as Flink's own columnar file sources emit theirs: no object is made per row.
 * Flink's contract allows it: without object reuse a chained operator gets a copy; with object reuse
 * enabled operators must not hold on to input objects (Flink's SQL operators copy what they keep).
 *
 * <p><b>Timestamps.</b> As Apache Paimon's source does, rows carry the creation time of their split's
 * oldest file as record timestamp ({@link PaimonSplitState#eventTime()}), from which Flink reports
 * FLIP-33's {@code currentEmitEventTimeLag}. A watermark declared on the table takes its event time
 * from the row, not from this timestamp.
 */
final class PaimonRecordEmitter implements RecordEmitter<RowChunk, RowData, PaimonSplitState> {
    private final RecordLimiter limiter;
    private final ColumnarRow columnarView = new ColumnarRow();
    private final FlinkRowData view = new FlinkRowData();

    PaimonRecordEmitter(RecordLimiter limiter) {
        this.limiter = limiter;
    }

    @Override
    public void emitRecord(RowChunk rows, SourceOutput<RowData> output, PaimonSplitState splitState) {
        long timestamp = splitState.eventTime();
        for (int i = 0, n = rows.size(); i < n; i++) {
            if (!limiter.tryAcquire()) {
                return;
            }
            if (timestamp == Long.MIN_VALUE) {
                output.collect(view.replace(rows.row(i, columnarView)));
            } else {
                output.collect(view.replace(rows.row(i, columnarView)), timestamp);
            }
            splitState.recordEmitted();
        }
    }
}
