package dev.streamhouse.flink.cdc.source.reader;

import dev.streamhouse.flink.cdc.event.CdcEvent;
import dev.streamhouse.flink.cdc.event.CdcRecord;
import dev.streamhouse.flink.cdc.source.CdcDeserializer;
import dev.streamhouse.flink.cdc.source.split.MySqlBinlogSplitState;
import org.apache.flink.api.connector.source.SourceOutput;
import org.apache.flink.connector.base.source.reader.RecordEmitter;
import org.apache.flink.util.Collector;

/**
 * Emits a record's events through the deserializer and then moves the split state to the record's
 * offset: a checkpoint taken after this call resumes after the record. Binlog rows older than a
 * {@code timestamp} start are dropped here. Tells the reader when the snapshot phase ends.
 */
final class CdcRecordEmitter<T> implements RecordEmitter<SourceElement, T, MySqlBinlogSplitState> {

    private final CdcDeserializer<T> deserializer;
    private final SnapshotProgress progress;
    private final Runnable onSnapshotFinished;
    private final OutputCollector<T> collector = new OutputCollector<>();

    CdcRecordEmitter(CdcDeserializer<T> deserializer, SnapshotProgress progress, Runnable onSnapshotFinished) {
        this.deserializer = deserializer;
        this.progress = progress;
        this.onSnapshotFinished = onSnapshotFinished;
    }

    @Override
    public void emitRecord(SourceElement element, SourceOutput<T> output, MySqlBinlogSplitState state)
            throws Exception {
        collector.output = output;
        long skipBefore = state.skipBeforeMillis();
        for (CdcEvent event : element.events()) {
            if (skipBefore > 0 && event instanceof CdcRecord record && !record.snapshot()
                    && record.sourceTimestampMillis() < skipBefore) {
                continue;
            }
            if (event instanceof CdcRecord record && record.snapshot()) {
                progress.row(record.table());
            }
            deserializer.deserialize(event, collector);
        }
        boolean wasPending = state.snapshotPending();
        state.advance(element.offset(), element.inSnapshot());
        if (wasPending && !state.snapshotPending()) {
            progress.finished();
            onSnapshotFinished.run();
        }
    }

    private static final class OutputCollector<T> implements Collector<T> {
        private SourceOutput<T> output;

        @Override
        public void collect(T record) {
            output.collect(record);
        }

        @Override
        public void close() {}
    }
}
