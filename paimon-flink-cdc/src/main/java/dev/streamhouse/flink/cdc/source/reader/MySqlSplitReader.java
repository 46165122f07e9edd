package dev.streamhouse.flink.cdc.source.reader;

import dev.streamhouse.flink.cdc.event.CdcRecord;
import dev.streamhouse.flink.cdc.event.CdcSchema;
import dev.streamhouse.flink.cdc.event.CdcTableId;
import dev.streamhouse.flink.cdc.mysql.snapshot.ChunkReader;
import dev.streamhouse.flink.cdc.source.MySqlSourceConfig;
import dev.streamhouse.flink.cdc.source.split.MySqlBinlogSplit;
import dev.streamhouse.flink.cdc.source.split.MySqlChunkSplit;
import dev.streamhouse.flink.cdc.source.split.MySqlSplit;
import java.io.IOException;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.flink.connector.base.source.reader.RecordsBySplits;
import org.apache.flink.connector.base.source.reader.RecordsWithSplitIds;
import org.apache.flink.connector.base.source.reader.splitreader.SplitReader;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsAddition;
import org.apache.flink.connector.base.source.reader.splitreader.SplitsChange;

/**
 * Reads the splits of one source reader on its fetcher thread: chunks one at a time, each fetch
 * returning a whole chunk as one element (and the chunk finished), then the binlog through
 * Debezium. A chunk that was emitted before a restore (it carries its high watermark) finishes
 * without being read, so that the reader reports it again.
 */
final class MySqlSplitReader implements SplitReader<SourceElement, MySqlSplit> {

    private final MySqlSourceConfig config;
    private final int serverId;
    private final Deque<MySqlChunkSplit> chunks = new ArrayDeque<>();
    private final Map<CdcTableId, CdcSchema> schemas = new HashMap<>();
    private ChunkReader chunkReader;
    private DebeziumBinlogReader binlog;

    MySqlSplitReader(MySqlSourceConfig config, int serverId) {
        this.config = config;
        this.serverId = serverId;
    }

    @Override
    public RecordsWithSplitIds<SourceElement> fetch() throws IOException {
        MySqlChunkSplit chunk = chunks.pollFirst();
        if (chunk != null) {
            RecordsBySplits.Builder<SourceElement> batch = new RecordsBySplits.Builder<>();
            if (!chunk.isEmitted()) {
                batch.add(chunk.splitId(), read(chunk));
            }
            batch.addFinishedSplit(chunk.splitId());
            return batch.build();
        }
        if (binlog != null) {
            return binlog.fetch();
        }
        return new RecordsBySplits.Builder<SourceElement>().build();
    }

    private SourceElement.ChunkRows read(MySqlChunkSplit chunk) throws IOException {
        if (chunkReader == null) {
            chunkReader = new ChunkReader(config, serverId);
        }
        ChunkReader.ChunkResult result;
        try {
            result = chunkReader.read(chunk.table(), chunk.range());
        } catch (SQLException e) {
            throw new IOException("Cannot read chunk " + chunk.index() + " " + chunk.range() + " of MySQL table "
                    + chunk.table().id() + " from " + config.address() + ": " + e.getMessage(), e);
        }
        // One schema instance per table, whatever split it came with: deserializers cache by it.
        CdcSchema schema = schemas.merge(chunk.table().id(), chunk.table().schema(),
                (known, fresh) -> known.sameStructure(fresh) ? known : fresh);
        long now = System.currentTimeMillis();
        List<CdcRecord> rows = new ArrayList<>(result.rows().size());
        for (Object[] row : result.rows()) {
            rows.add(new CdcRecord(schema, CdcRecord.Op.INSERT, null, row, now, true));
        }
        return new SourceElement.ChunkRows(chunk, rows, result.highWatermark());
    }

    @Override
    public void handleSplitsChanges(SplitsChange<MySqlSplit> change) {
        if (!(change instanceof SplitsAddition)) {
            throw new UnsupportedOperationException("Unsupported splits change " + change);
        }
        for (MySqlSplit split : change.splits()) {
            if (split instanceof MySqlChunkSplit chunk) {
                chunks.addLast(chunk);
            } else {
                if (binlog == null) {
                    binlog = new DebeziumBinlogReader(config, serverId);
                }
                binlog.start((MySqlBinlogSplit) split);
            }
        }
    }

    @Override
    public void wakeUp() {}

    @Override
    public void close() throws Exception {
        try {
            if (chunkReader != null) {
                chunkReader.close();
            }
        } finally {
            if (binlog != null) {
                binlog.close();
            }
        }
    }
}
