package dev.streamhouse.flink.cdc.source;

import dev.streamhouse.flink.cdc.source.enumerator.BinlogSplitEnumerator;
import dev.streamhouse.flink.cdc.source.enumerator.ChunkedSnapshotEnumerator;
import dev.streamhouse.flink.cdc.source.enumerator.MySqlCdcEnumeratorState;
import dev.streamhouse.flink.cdc.source.enumerator.MySqlCdcEnumeratorStateSerializer;
import dev.streamhouse.flink.cdc.source.reader.MySqlCdcSourceReader;
import dev.streamhouse.flink.cdc.source.split.MySqlSplit;
import dev.streamhouse.flink.cdc.source.split.MySqlSplitSerializer;
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
 *
 * <p>The snapshot is read in parallel chunks by primary key, lock-free, every reader taking chunks
 * as it goes, with checkpoints throughout ({@link ChunkedSnapshotEnumerator} describes how); or,
 * with {@link MySqlCdcSourceBuilder#debeziumSnapshot()}, by Debezium's single-threaded snapshot,
 * during which checkpoints are skipped. A chunk is emitted as one unit, between two checkpoints
 * and never across one; a restore reads again exactly the chunks not emitted before the restored
 * checkpoint, and the binlog after the snapshot skips the changes each chunk already holds, so the
 * change stream has every change once. DDL on a captured table while the chunked snapshot runs
 * (until the binlog reader has started) fails the job naming the table.
 *
 * <p>Debezium's offset and schema history live in the binlog split's state, so a restore from a
 * checkpoint resumes exactly after the last record emitted before it: no change lost or repeated.
 * One reader reads the binlog; others stay idle. Build one with {@link #builder()}.
 */
public final class MySqlCdcSource<T>
        implements Source<T, MySqlSplit, MySqlCdcEnumeratorState>, ResultTypeQueryable<T> {
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
    public SourceReader<T, MySqlSplit> createReader(SourceReaderContext context) {
        return new MySqlCdcSourceReader<>(config, deserializer, context);
    }

    @Override
    public SplitEnumerator<MySqlSplit, MySqlCdcEnumeratorState> createEnumerator(
            SplitEnumeratorContext<MySqlSplit> context) {
        if (config.startup().mode() == StartupMode.INITIAL && config.chunkedSnapshot()) {
            return new ChunkedSnapshotEnumerator(context, config, null);
        }
        return new BinlogSplitEnumerator(context, config, null);
    }

    @Override
    public SplitEnumerator<MySqlSplit, MySqlCdcEnumeratorState> restoreEnumerator(
            SplitEnumeratorContext<MySqlSplit> context, MySqlCdcEnumeratorState checkpoint) {
        if (checkpoint.chunks() != null) {
            return new ChunkedSnapshotEnumerator(context, config, checkpoint);
        }
        return new BinlogSplitEnumerator(context, config, checkpoint);
    }

    @Override
    public SimpleVersionedSerializer<MySqlSplit> getSplitSerializer() {
        return MySqlSplitSerializer.INSTANCE;
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
