package dev.streamhouse.flink.cdc.source.reader;

import dev.streamhouse.flink.cdc.mysql.BinlogPosition;
import dev.streamhouse.flink.cdc.mysql.snapshot.ServerCollationWeights;
import dev.streamhouse.flink.cdc.mysql.snapshot.SnapshotConnections;
import dev.streamhouse.flink.cdc.source.CdcDeserializer;
import dev.streamhouse.flink.cdc.source.MySqlSourceConfig;
import dev.streamhouse.flink.cdc.source.coordination.ChunkProgressEvent;
import dev.streamhouse.flink.cdc.source.coordination.ChunksAcknowledgedEvent;
import dev.streamhouse.flink.cdc.source.coordination.SnapshotFinishedEvent;
import dev.streamhouse.flink.cdc.source.split.MySqlBinlogSplit;
import dev.streamhouse.flink.cdc.source.split.MySqlBinlogSplitState;
import dev.streamhouse.flink.cdc.source.split.MySqlChunkSplit;
import dev.streamhouse.flink.cdc.source.split.MySqlChunkSplitState;
import dev.streamhouse.flink.cdc.source.split.MySqlSplit;
import dev.streamhouse.flink.cdc.source.split.MySqlSplitState;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.connector.base.source.reader.SingleThreadMultiplexSourceReaderBase;

/**
 * The MySQL CDC source reader: snapshot chunks (any number over time, read one at a time) and at
 * most one binlog split, read by a {@link MySqlSplitReader}; readers without a split stay idle.
 *
 * <p>An emitted chunk is reported to the enumerator with its high watermark and stays in this
 * reader's checkpoints until the enumerator acknowledges it, so that a report lost to a failure is
 * repeated after the restore. Chunks restored unread are reported as held when the reader starts:
 * the enumerator may have seen them emitted by the run that failed. With Debezium's snapshot the
 * reader reports the end of the snapshot phase, until which the enumerator holds checkpoints back.
 */
public final class MySqlCdcSourceReader<T>
        extends SingleThreadMultiplexSourceReaderBase<SourceElement, T, MySqlSplit, MySqlSplitState> {

    private final Map<String, MySqlChunkSplit> unacknowledged = new LinkedHashMap<>();
    private final List<String> restoredUnread = new ArrayList<>();
    private final WeightConnection weightConnection;
    private boolean started;

    public MySqlCdcSourceReader(MySqlSourceConfig config, CdcDeserializer<T> deserializer,
            SourceReaderContext context) {
        this(config, deserializer, context, new WeightConnection(config));
    }

    private MySqlCdcSourceReader(MySqlSourceConfig config, CdcDeserializer<T> deserializer,
            SourceReaderContext context, WeightConnection weightConnection) {
        super(() -> new MySqlSplitReader(config, config.serverIdFor(context.getIndexOfSubtask())),
                new CdcRecordEmitter<>(deserializer, new SnapshotProgress(config.address(), context.metricGroup()),
                        () -> context.sendSourceEventToCoordinator(new SnapshotFinishedEvent()),
                        new ServerCollationWeights(weightConnection::get)),
                context.getConfiguration(), context);
        this.weightConnection = weightConnection;
    }

    @Override
    public void start() {
        started = true;
        if (!restoredUnread.isEmpty()) {
            context.sendSourceEventToCoordinator(new ChunkProgressEvent(Map.of(), restoredUnread));
            restoredUnread.clear();
        }
        // Also with restored splits: the enumerator keeps a chunked snapshot's readers supplied with chunks.
        context.sendSplitRequest();
    }

    @Override
    public void addSplits(List<MySqlSplit> splits) {
        if (!started) {
            for (MySqlSplit split : splits) {
                if (split instanceof MySqlChunkSplit chunk && !chunk.isEmitted()) {
                    restoredUnread.add(chunk.splitId());
                }
            }
        }
        super.addSplits(splits);
    }

    @Override
    protected void onSplitFinished(Map<String, MySqlSplitState> finishedSplitIds) {
        Map<String, BinlogPosition> emitted = new LinkedHashMap<>();
        for (MySqlSplitState state : finishedSplitIds.values()) {
            if (!(state instanceof MySqlChunkSplitState chunk)) {
                throw new IllegalStateException("The MySQL binlog split never finishes");
            }
            MySqlChunkSplit split = chunk.toSplit();
            if (!split.isEmitted()) {
                throw new IllegalStateException("Chunk " + split.splitId() + " finished without being emitted");
            }
            unacknowledged.put(split.splitId(), split);
            emitted.put(split.splitId(), split.highWatermark());
        }
        context.sendSourceEventToCoordinator(new ChunkProgressEvent(emitted, List.of()));
    }

    @Override
    public void handleSourceEvents(SourceEvent sourceEvent) {
        if (sourceEvent instanceof ChunksAcknowledgedEvent ack) {
            ack.splitIds().forEach(unacknowledged::remove);
        } else {
            super.handleSourceEvents(sourceEvent);
        }
    }

    @Override
    public List<MySqlSplit> snapshotState(long checkpointId) {
        List<MySqlSplit> splits = new ArrayList<>(super.snapshotState(checkpointId));
        splits.addAll(unacknowledged.values());
        return splits;
    }

    @Override
    public void close() throws Exception {
        try {
            super.close();
        } finally {
            weightConnection.close();
        }
    }

    /**
     * The connection by which the emitter reads collation weights (keys in linguistic collations
     * during a snapshot window), opened when first needed.
     */
    private static final class WeightConnection implements AutoCloseable {
        private final MySqlSourceConfig config;
        private Connection connection;

        WeightConnection(MySqlSourceConfig config) {
            this.config = config;
        }

        Connection get() throws SQLException {
            if (connection == null) {
                connection = SnapshotConnections.open(config);
            }
            return connection;
        }

        @Override
        public void close() throws SQLException {
            if (connection != null) {
                connection.close();
            }
        }
    }

    @Override
    protected MySqlSplitState initializedState(MySqlSplit split) {
        return split instanceof MySqlChunkSplit chunk ? new MySqlChunkSplitState(chunk)
                : new MySqlBinlogSplitState((MySqlBinlogSplit) split);
    }

    @Override
    protected MySqlSplit toSplitType(String splitId, MySqlSplitState state) {
        return state.toSplit();
    }
}
