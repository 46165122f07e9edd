package dev.streamhouse.flink.cdc.source.reader;

import dev.streamhouse.flink.cdc.source.CdcDeserializer;
import dev.streamhouse.flink.cdc.source.MySqlSourceConfig;
import dev.streamhouse.flink.cdc.source.event.SnapshotFinishedEvent;
import dev.streamhouse.flink.cdc.source.split.MySqlBinlogSplit;
import dev.streamhouse.flink.cdc.source.split.MySqlBinlogSplitState;
import java.util.Map;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.connector.base.source.reader.SingleThreadMultiplexSourceReaderBase;

/**
 * The MySQL CDC source reader: at most one split (the binlog), read by a {@link DebeziumSplitReader};
 * readers without a split stay idle. Reports the end of the snapshot phase to the enumerator,
 * which holds checkpoints back until then.
 */
public final class MySqlCdcSourceReader<T>
        extends SingleThreadMultiplexSourceReaderBase<SourceElement, T, MySqlBinlogSplit, MySqlBinlogSplitState> {

    public MySqlCdcSourceReader(MySqlSourceConfig config, CdcDeserializer<T> deserializer,
            SourceReaderContext context) {
        super(() -> new DebeziumSplitReader(config),
                new CdcRecordEmitter<>(deserializer, new SnapshotProgress(config.address(), context.metricGroup()),
                        () -> context.sendSourceEventToCoordinator(new SnapshotFinishedEvent())),
                context.getConfiguration(), context);
    }

    @Override
    public void start() {
        if (getNumberOfCurrentlyAssignedSplits() == 0) {
            context.sendSplitRequest();
        }
    }

    @Override
    protected void onSplitFinished(Map<String, MySqlBinlogSplitState> finishedSplitIds) {
        throw new IllegalStateException("The MySQL binlog split never finishes");
    }

    @Override
    protected MySqlBinlogSplitState initializedState(MySqlBinlogSplit split) {
        return new MySqlBinlogSplitState(split);
    }

    @Override
    protected MySqlBinlogSplit toSplitType(String splitId, MySqlBinlogSplitState state) {
        return state.toSplit();
    }
}
