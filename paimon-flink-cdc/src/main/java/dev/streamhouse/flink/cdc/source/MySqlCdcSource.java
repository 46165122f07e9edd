package dev.streamhouse.flink.cdc.source;

import dev.streamhouse.flink.cdc.source.enumerator.MySqlCdcEnumerator;
import dev.streamhouse.flink.cdc.source.enumerator.MySqlCdcEnumeratorState;
import dev.streamhouse.flink.cdc.source.enumerator.MySqlCdcEnumeratorStateSerializer;
import dev.streamhouse.flink.cdc.source.reader.MySqlCdcSourceReader;
import dev.streamhouse.flink.cdc.source.split.MySqlBinlogSplit;
import dev.streamhouse.flink.cdc.source.split.MySqlBinlogSplitSerializer;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.Boundedness;
import org.apache.flink.api.connector.source.Source;
import org.apache.flink.api.connector.source.SourceReader;
import org.apache.flink.api.connector.source.SourceReaderContext;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.api.java.typeutils.ResultTypeQueryable;
import org.apache.flink.core.io.SimpleVersionedSerializer;

/**
 * A FLIP-27 source of a MySQL or MariaDB server's changes: a snapshot of the captured tables
 * (startup mode {@code initial}) and then the binlog, through Debezium's embedded engine.
 * Debezium's offset and schema history live in the split state, so a restore from a checkpoint
 * resumes exactly after the last record emitted before it: no change lost or repeated. One reader
 * reads the binlog; others stay idle. Build one with {@link #builder()}.
 */
public final class MySqlCdcSource<T>
        implements Source<T, MySqlBinlogSplit, MySqlCdcEnumeratorState>, ResultTypeQueryable<T> {
    private static final long serialVersionUID = 1L;

    private final MySqlSourceConfig config;
    private final CdcDeserializer<T> deserializer;

    MySqlCdcSource(MySqlSourceConfig config, CdcDeserializer<T> deserializer) {
        this.config = config;
        this.deserializer = deserializer;
    }

    public static <T> MySqlCdcSourceBuilder<T> builder() {
        return new MySqlCdcSourceBuilder<>();
    }

    public MySqlSourceConfig config() {
        return config;
    }

    @Override
    public Boundedness getBoundedness() {
        return Boundedness.CONTINUOUS_UNBOUNDED;
    }

    @Override
    public SourceReader<T, MySqlBinlogSplit> createReader(SourceReaderContext context) {
        return new MySqlCdcSourceReader<>(config, deserializer, context);
    }

    @Override
    public SplitEnumerator<MySqlBinlogSplit, MySqlCdcEnumeratorState> createEnumerator(
            SplitEnumeratorContext<MySqlBinlogSplit> context) {
        return new MySqlCdcEnumerator(context, config, null);
    }

    @Override
    public SplitEnumerator<MySqlBinlogSplit, MySqlCdcEnumeratorState> restoreEnumerator(
            SplitEnumeratorContext<MySqlBinlogSplit> context, MySqlCdcEnumeratorState checkpoint) {
        return new MySqlCdcEnumerator(context, config, checkpoint);
    }

    @Override
    public SimpleVersionedSerializer<MySqlBinlogSplit> getSplitSerializer() {
        return MySqlBinlogSplitSerializer.INSTANCE;
    }

    @Override
    public SimpleVersionedSerializer<MySqlCdcEnumeratorState> getEnumeratorCheckpointSerializer() {
        return new MySqlCdcEnumeratorStateSerializer();
    }

    @Override
    public TypeInformation<T> getProducedType() {
        return deserializer.getProducedType();
    }
}
