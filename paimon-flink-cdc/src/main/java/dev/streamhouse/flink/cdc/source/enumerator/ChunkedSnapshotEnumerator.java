package dev.streamhouse.flink.cdc.source.enumerator;

import dev.streamhouse.flink.cdc.debezium.BinlogStart;
import dev.streamhouse.flink.cdc.debezium.SchemaHistorySeed;
import dev.streamhouse.flink.cdc.event.CdcTableId;
import dev.streamhouse.flink.cdc.mysql.BinlogPosition;
import dev.streamhouse.flink.cdc.mysql.BinlogStartOffset;
import dev.streamhouse.flink.cdc.mysql.CapturedTable;
import dev.streamhouse.flink.cdc.mysql.MySqlConnections;
import dev.streamhouse.flink.cdc.mysql.ServerBinlog;
import dev.streamhouse.flink.cdc.mysql.ServerChecks;
import dev.streamhouse.flink.cdc.mysql.ServerFlavor;
import dev.streamhouse.flink.cdc.mysql.TableDiscovery;
import dev.streamhouse.flink.cdc.mysql.snapshot.ChunkRange;
import dev.streamhouse.flink.cdc.mysql.snapshot.KeyOrder;
import dev.streamhouse.flink.cdc.mysql.snapshot.SnapshotConnections;
import dev.streamhouse.flink.cdc.mysql.snapshot.TableChunker;
import dev.streamhouse.flink.cdc.source.MySqlSourceConfig;
import dev.streamhouse.flink.cdc.source.coordination.ChunkProgressEvent;
import dev.streamhouse.flink.cdc.source.coordination.ChunksAcknowledgedEvent;
import dev.streamhouse.flink.cdc.source.split.MySqlBinlogSplit;
import dev.streamhouse.flink.cdc.source.split.MySqlChunkSplit;
import dev.streamhouse.flink.cdc.source.split.MySqlSplit;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.apache.flink.metrics.MetricGroup;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The enumerator of a chunked snapshot (startup mode {@code initial}): the parallel, lock-free
 * snapshot of the captured tables, then the binlog.
 *
 * <p><b>Chunks.</b> At the start it checks the server and reads the captured tables' schemas
 * ({@link TableDiscovery}); a table without a primary key, or with a key whose order cannot be
 * reproduced, fails the job naming it. Then, one table at a time off the coordinator thread, it
 * splits each table into key ranges of about {@code scan.incremental.snapshot.chunk.size} rows
 * ({@link TableChunker}) and hands the chunks out, keeping up to {@value #CHUNKS_IN_FLIGHT} with
 * every reader so that a reader never waits for its next chunk. A reader reads each chunk over JDBC
 * as of a high watermark ({@code ChunkReader}), emits its rows in one step and reports the
 * watermark ({@link ChunkProgressEvent}), which the enumerator acknowledges.
 *
 * <p><b>Checkpoints</b> are taken throughout: the enumerator state holds the tables still to split
 * and every chunk (waiting, assigned to a reader, emitted with its watermark); a reader's state
 * holds its chunks, each unread or emitted as a whole, and its emitted chunks until acknowledged.
 * After a restore only chunks not emitted before the checkpoint are read again; a reader restored
 * alone reports the chunks it holds, which the enumerator then counts as unread even if it saw them
 * emitted (that emission was rolled back).
 *
 * <p><b>Binlog.</b> When every chunk is emitted (and, with several readers, a checkpoint after that
 * has completed: {@link BinlogStartGate}) one reader gets the binlog split: from the position read
 * before the tables' definitions at the start, with those definitions as its schema history
 * ({@link SchemaHistorySeed}), skipping each change whose chunk's high watermark lies after it (the
 * chunk holds it). DDL made after a table's chunks were read is followed; DDL made on a table
 * before or while its chunks were read fails the job when the reader meets it, naming the table. A reader restored alone that hands chunks back once the binlog split is out fails the job,
 * so that every reader restores from one checkpoint.
 */
public final class ChunkedSnapshotEnumerator implements SplitEnumerator<MySqlSplit, MySqlCdcEnumeratorState> {

    static final int CHUNKS_IN_FLIGHT = 2;
    private static final Logger LOG = LoggerFactory.getLogger(ChunkedSnapshotEnumerator.class);

    private final SplitEnumeratorContext<MySqlSplit> context;
    private final MySqlSourceConfig config;
    private final BinlogStartGate gate;
    private ChunkAssigner assigner;
    /** Where the binlog split starts, with the captured tables' definitions there; read with the tables. */
    private BinlogStart binlogStart;
    private MySqlBinlogSplit pendingBinlog;
    private long pendingBinlogGeneration;
    private boolean splitting;
    private boolean creatingBinlog;
    private int tablesLoggedDone;
    private boolean loggedWaiting;

    public ChunkedSnapshotEnumerator(SplitEnumeratorContext<MySqlSplit> context, MySqlSourceConfig config,
            MySqlCdcEnumeratorState restored) {
        this.context = context;
        this.config = config;
        this.gate = new BinlogStartGate(context.currentParallelism(), restored != null);
        if (restored != null) {
            this.assigner = new ChunkAssigner(restored.chunks());
            this.binlogStart = restored.binlogStart();
            this.pendingBinlog = restored.unassigned();
            this.tablesLoggedDone = assigner.tablesDone();
        }
    }

    @Override
    public void start() {
        if (assigner == null) {
            assigner = new ChunkAssigner(discoverTables());
        }
        registerMetrics(context.metricGroup().addGroup("mysql-cdc"));
        if (assigner.tables().isEmpty() && !assigner.binlogAssigned() && pendingBinlog == null) {
            LOG.info("MySQL CDC source for {}: no table matches; reading the binlog from its end", config.address());
            createBinlogSplit();
        }
        splitNextTable();
    }

    /**
     * The captured tables, and {@link #binlogStart}: the binlog position now, then the tables'
     * definitions as of it. The binlog split starts there with those definitions, so it decodes the
     * changes of any DDL made from here on with the definitions they were written with.
     */
    private List<CapturedTable> discoverTables() {
        try (Connection connection = MySqlConnections.open(config)) {
            ServerChecks.check(connection, config);
            BinlogStartOffset offset = ServerBinlog.withGtidPosition(connection, ServerFlavor.detect(connection),
                    ServerBinlog.current(connection, config.address()), config.address());
            List<CdcTableId> ids = TableDiscovery.capturedTableIds(connection, config);
            binlogStart = SchemaHistorySeed.at(connection, offset, ids);
            List<CapturedTable> tables = new ArrayList<>();
            for (CdcTableId id : ids) {
                CapturedTable table = TableDiscovery.tableOf(connection, id);
                if (config.skipTablesWithoutKey() && table.schema().primaryKeys().isEmpty()) {
                    LOG.warn("MySQL CDC source for {}: table {} has no primary key; its snapshot is skipped",
                            config.address(), table.id());
                    continue;
                }
                KeyOrder.of(table);
                tables.add(table);
            }
            LOG.info("MySQL CDC source for {} snapshots {} tables in chunks of {} rows: {}; the binlog follows "
                    + "from {}", config.address(), tables.size(), config.chunkSize(),
                    tables.stream().map(t -> t.id().toString()).toList(), offset);
            return tables;
        } catch (SQLException e) {
            throw new IllegalStateException("Cannot prepare the MySQL CDC source for " + config.address() + ": "
                    + e.getMessage(), e);
        }
    }

    private void splitNextTable() {
        CapturedTable table = assigner.nextTableToSplit();
        if (splitting || table == null) {
            return;
        }
        splitting = true;
        context.callAsync(() -> split(table), (ranges, error) -> {
            splitting = false;
            if (error != null) {
                throw new IllegalStateException("Cannot split MySQL table " + table.id() + " into chunks on "
                        + config.address() + ": " + error.getMessage(), error);
            }
            assigner.tableSplit(table.id(), ranges);
            LOG.info("MySQL CDC snapshot of {}: table {} split into {} chunks", config.address(), table.id(),
                    ranges.size());
            topUpAll();
            splitNextTable();
            maybeStartBinlog();
        });
    }

    private List<ChunkRange> split(CapturedTable table) throws SQLException {
        try (Connection connection = SnapshotConnections.open(config)) {
            return TableChunker.split(connection, table, config.chunkSize());
        }
    }

    @Override
    public void handleSplitRequest(int subtaskId, String requesterHostname) {
        topUp(subtaskId);
        maybeStartBinlog();
    }

    @Override
    public void addReader(int subtaskId) {}

    @Override
    public void handleSourceEvent(int subtaskId, SourceEvent sourceEvent) {
        if (!(sourceEvent instanceof ChunkProgressEvent progress)) {
            return;
        }
        for (String id : progress.held()) {
            if (assigner.held(subtaskId, id) && assigner.binlogAssigned()) {
                throw new IllegalStateException("MySQL CDC source for " + config.address() + ": reader " + subtaskId
                        + " restored chunk " + id + " unread after the binlog was handed out; restarting every reader "
                        + "from the last checkpoint");
            }
        }
        List<String> acknowledged = new ArrayList<>();
        for (Map.Entry<String, BinlogPosition> e : progress.emitted().entrySet()) {
            assigner.emitted(e.getKey(), e.getValue());
            acknowledged.add(e.getKey());
        }
        if (!acknowledged.isEmpty()) {
            context.sendEventToSourceReader(subtaskId, new ChunksAcknowledgedEvent(acknowledged));
        }
        if (!assigner.allFinished()) {
            gate.reset();
            loggedWaiting = false;
        }
        logProgress();
        topUp(subtaskId);
        maybeStartBinlog();
    }

    @Override
    public void addSplitsBack(List<MySqlSplit> splits, int subtaskId) {
        List<MySqlChunkSplit> chunks = new ArrayList<>();
        boolean binlogBack = false;
        for (MySqlSplit split : splits) {
            if (split instanceof MySqlChunkSplit chunk) {
                chunks.add(chunk);
            } else {
                binlogBack = true;
            }
        }
        if (!chunks.isEmpty() && assigner.binlogAssigned() && !binlogBack) {
            throw new IllegalStateException("MySQL CDC source for " + config.address() + ": reader " + subtaskId
                    + " failed with chunks it read after the binlog was handed out to another reader; restarting "
                    + "every reader from the last checkpoint");
        }
        if (binlogBack) {
            assigner.binlogAssigned(false);
            pendingBinlog = null;
        }
        assigner.handedBack(chunks);
        if (!chunks.isEmpty()) {
            gate.reset();
            LOG.info("MySQL CDC snapshot of {}: reader {} failed; {} chunks are read again", config.address(),
                    subtaskId, chunks.size());
        }
    }

    @Override
    public MySqlCdcEnumeratorState snapshotState(long checkpointId) {
        gate.checkpointTriggered(checkpointId, assigner.allFinished());
        return new MySqlCdcEnumeratorState(pendingBinlog, true, assigner.binlogAssigned(), assigner.snapshot(),
                binlogStart);
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) {
        gate.checkpointCompleted(checkpointId);
        maybeStartBinlog();
    }

    /** Keeps {@value #CHUNKS_IN_FLIGHT} chunks with the reader, while any wait. */
    private void topUp(int subtask) {
        if (!context.registeredReaders().containsKey(subtask)) {
            return;
        }
        while (assigner.inFlight(subtask) < CHUNKS_IN_FLIGHT) {
            MySqlChunkSplit split = assigner.assign(subtask);
            if (split == null) {
                return;
            }
            context.assignSplit(split, subtask);
        }
    }

    private void topUpAll() {
        for (int subtask : new TreeSet<>(context.registeredReaders().keySet())) {
            topUp(subtask);
        }
    }

    private void maybeStartBinlog() {
        if (!assigner.allFinished() || assigner.binlogAssigned()) {
            return;
        }
        if (pendingBinlog == null || pendingBinlogGeneration != assigner.generation()) {
            pendingBinlog = null;
            createBinlogSplit();
            return;
        }
        if (!gate.isOpen()) {
            if (!loggedWaiting) {
                loggedWaiting = true;
                LOG.info("MySQL CDC snapshot of {}: every chunk emitted; the binlog starts after {}",
                        config.address(), gate.waitingFor());
            }
            return;
        }
        TreeSet<Integer> readers = new TreeSet<>(context.registeredReaders().keySet());
        if (readers.isEmpty()) {
            return;
        }
        int reader = readers.first();
        context.assignSplit(pendingBinlog, reader);
        assigner.binlogAssigned(true);
        LOG.info("MySQL CDC snapshot of {} done: {} chunks of {} tables; reader {} reads the binlog from {}",
                config.address(), assigner.chunksFinished(), assigner.tables().size(), reader, pendingBinlog);
        pendingBinlog = null;
    }

    private void createBinlogSplit() {
        if (creatingBinlog) {
            return;
        }
        creatingBinlog = true;
        long generation = assigner.generation();
        boolean noTables = assigner.tables().isEmpty();
        var window = noTables ? null : assigner.window();
        context.callAsync(() -> noTables ? SnapshotBinlogSplit.withoutTables(config)
                : SnapshotBinlogSplit.after(config, window, binlogStart), (split, error) -> {
                    creatingBinlog = false;
                    if (error != null) {
                        throw new IllegalStateException("Cannot find where to read the binlog of " + config.address()
                                + " after the snapshot: " + error.getMessage(), error);
                    }
                    if (generation == assigner.generation() && assigner.allFinished() && !assigner.binlogAssigned()) {
                        pendingBinlog = split;
                        pendingBinlogGeneration = generation;
                    }
                    maybeStartBinlog();
                });
    }

    private void logProgress() {
        int done = assigner.tablesDone();
        if (done != tablesLoggedDone) {
            tablesLoggedDone = done;
            LOG.info("MySQL CDC snapshot of {}: {} of {} tables done, {} chunks emitted", config.address(), done,
                    assigner.tables().size(), assigner.chunksFinished());
        }
    }

    private void registerMetrics(MetricGroup group) {
        group.gauge("snapshotChunksEmitted", () -> assigner.chunksFinished());
        group.gauge("snapshotChunksKnown", () -> assigner.chunksKnown());
        group.gauge("snapshotTablesDone", () -> assigner.tablesDone());
        group.gauge("snapshotTables", () -> assigner.tables().size());
    }

    @Override
    public void close() {}
}
