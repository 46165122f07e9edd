package dev.streamhouse.flink.cdc.source.reader;

import dev.streamhouse.flink.cdc.event.CdcEvent;
import dev.streamhouse.flink.cdc.event.CdcRecord;
import dev.streamhouse.flink.cdc.event.CdcSchema;
import dev.streamhouse.flink.cdc.event.CdcSchemaChange;
import dev.streamhouse.flink.cdc.event.CdcTableId;
import dev.streamhouse.flink.cdc.mysql.snapshot.CollationWeights;
import dev.streamhouse.flink.cdc.source.CdcDeserializer;
import dev.streamhouse.flink.cdc.source.split.MySqlBinlogSplitState;
import dev.streamhouse.flink.cdc.source.split.MySqlChunkSplitState;
import dev.streamhouse.flink.cdc.source.split.MySqlSplitState;
import dev.streamhouse.flink.cdc.source.split.SnapshotWindow;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.apache.flink.api.connector.source.SourceOutput;
import org.apache.flink.connector.base.source.reader.RecordEmitter;
import org.apache.flink.util.Collector;

/**
 * Emits the source's elements through the deserializer, in the task thread.
 *
 * <ul>
 *   <li>A chunk's rows are emitted in one call, which also marks the chunk's state emitted: a
 *       checkpoint sees a chunk unread or emitted as a whole.
 *   <li>Binlog records move the binlog split's state. After a chunked snapshot, a row change that a
 *       chunk already holds ({@link SnapshotWindow#reflects}) is skipped; so are changes before a
 *       {@code timestamp} start. DDL on a table before one of its chunks' high watermarks fails the
 *       read: that chunk may have been read with either definition.
 *   <li>Each reader emits a table's schema before the first row of the table it emits, and again
 *       when a row's schema differs from the one it emitted last: a reader's output describes itself.
 * </ul>
 */
final class CdcRecordEmitter<T> implements RecordEmitter<SourceElement, T, MySqlSplitState> {

    private final CdcDeserializer<T> deserializer;
    private final SnapshotProgress progress;
    private final Runnable onSnapshotFinished;
    private final OutputCollector<T> collector = new OutputCollector<>();
    private final Map<CdcTableId, CdcSchema> emittedSchemas = new HashMap<>();
    private final CollationWeights weights;

    CdcRecordEmitter(CdcDeserializer<T> deserializer, SnapshotProgress progress, Runnable onSnapshotFinished,
            CollationWeights weights) {
        this.deserializer = deserializer;
        this.progress = progress;
        this.onSnapshotFinished = onSnapshotFinished;
        this.weights = weights;
    }

    @Override
    public void emitRecord(SourceElement element, SourceOutput<T> output, MySqlSplitState state) throws Exception {
        collector.output = output;
        if (element instanceof SourceElement.ChunkRows chunk) {
            for (CdcRecord row : chunk.rows()) {
                emit(row);
            }
            progress.chunk(chunk.split().table().id(), chunk.rows().size());
            ((MySqlChunkSplitState) state).emitted(chunk.highWatermark());
            return;
        }
        SourceElement.BinlogRecord record = (SourceElement.BinlogRecord) element;
        MySqlBinlogSplitState binlog = (MySqlBinlogSplitState) state;
        long skipBefore = binlog.skipBeforeMillis();
        SnapshotWindow window = binlog.window();
        for (CdcEvent event : record.events()) {
            if (event instanceof CdcSchemaChange change && change.ddl() != null && window != null
                    && record.position() != null && window.readAfter(change.table(), record.position())) {
                throw new IOException("Cannot follow the binlog after the chunked snapshot: table " + change.table()
                        + " changed its definition (" + change.ddl() + ") at " + record.position() + ", before or "
                        + "while its chunks were read, so the rows read may not match either definition. Restart the "
                        + "job without its state once the DDL is done, or read with Debezium's snapshot "
                        + "('scan.incremental.snapshot.enabled' = 'false')");
            }
            if (event instanceof CdcRecord row && !row.snapshot()) {
                if (skipBefore > 0 && row.sourceTimestampMillis() < skipBefore) {
                    continue;
                }
                if (window != null && record.position() != null && window.reflects(row.table(),
                        row.after() != null ? row.after() : row.before(), record.position(), weights)) {
                    continue;
                }
            }
            if (event instanceof CdcRecord row && row.snapshot()) {
                progress.row(row.table());
            }
            emit(event);
        }
        boolean wasPending = binlog.snapshotPending();
        binlog.advance(record.offset(), record.inSnapshot(), record.position());
        if (wasPending && !binlog.snapshotPending()) {
            progress.finished();
            onSnapshotFinished.run();
        }
    }

    private void emit(CdcEvent event) throws Exception {
        if (event instanceof CdcSchemaChange change) {
            emittedSchemas.put(change.table(), change.schema());
        } else {
            CdcSchema known = emittedSchemas.get(event.table());
            if (known == null || !known.sameStructure(event.schema())) {
                CdcSchemaChange change = new CdcSchemaChange(event.schema(), null);
                emittedSchemas.put(change.table(), change.schema());
                deserializer.deserialize(change, collector);
            }
        }
        deserializer.deserialize(event, collector);
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
