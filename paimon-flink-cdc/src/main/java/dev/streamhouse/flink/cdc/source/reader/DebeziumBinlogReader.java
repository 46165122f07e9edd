package dev.streamhouse.flink.cdc.source.reader;

import dev.streamhouse.flink.cdc.debezium.DebeziumProperties;
import dev.streamhouse.flink.cdc.debezium.SchemaHistoryRegistry;
import dev.streamhouse.flink.cdc.debezium.SourceRecordConverter;
import dev.streamhouse.flink.cdc.event.CdcSchema;
import dev.streamhouse.flink.cdc.mysql.CapturedTable;
import dev.streamhouse.flink.cdc.mysql.MySqlConnections;
import dev.streamhouse.flink.cdc.mysql.ServerFlavor;
import dev.streamhouse.flink.cdc.source.MySqlSourceConfig;
import dev.streamhouse.flink.cdc.source.split.MySqlBinlogSplit;
import io.debezium.embedded.Connect;
import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.RecordChangeEvent;
import io.debezium.engine.format.ChangeEventFormat;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.apache.flink.connector.base.source.reader.RecordsBySplits;
import org.apache.flink.connector.base.source.reader.RecordsWithSplitIds;
import org.apache.kafka.connect.source.SourceRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs Debezium's embedded engine for the binlog split and hands its records to the fetcher. The
 * engine runs on its own thread and blocks on a bounded queue when Flink does not keep up, so the
 * binlog is read no faster than it is emitted. An engine failure fails the next fetch with its
 * cause. After a chunked snapshot the split carries the schema history the connector starts with
 * (the captured tables' definitions where it starts reading), so it resumes rather than reading the
 * tables' current definitions.
 */
final class DebeziumBinlogReader implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(DebeziumBinlogReader.class);
    private static final int QUEUE_CAPACITY = 2048;
    private static final int MAX_BATCH = 1024;
    /** How long close() waits for the engine thread to end before it gives up (and says so). */
    private static final long CLOSE_TIMEOUT_SECONDS = 60;

    private final MySqlSourceConfig config;
    private final int serverId;
    private final BlockingQueue<SourceElement> queue = new ArrayBlockingQueue<>(QUEUE_CAPACITY);
    private volatile Throwable failure;
    private volatile boolean stopped;
    private ExecutorService executor;
    private DebeziumEngine<RecordChangeEvent<SourceRecord>> engine;
    private String historyId;

    DebeziumBinlogReader(MySqlSourceConfig config, int serverId) {
        this.config = config;
        this.serverId = serverId;
    }

    RecordsWithSplitIds<SourceElement> fetch() throws IOException {
        RecordsBySplits.Builder<SourceElement> batch = new RecordsBySplits.Builder<>();
        try {
            SourceElement first = queue.poll(100, TimeUnit.MILLISECONDS);
            if (first != null) {
                List<SourceElement> elements = new ArrayList<>();
                elements.add(first);
                queue.drainTo(elements, MAX_BATCH - 1);
                batch.addAll(MySqlBinlogSplit.ID, elements);
            } else if (failure != null) {
                throw new IOException("MySQL CDC source failed reading " + config.address() + ": "
                        + failure.getMessage(), failure);
            } else if (stopped && engine != null) {
                throw new IOException("MySQL CDC source's Debezium engine stopped unexpectedly");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return batch.build();
    }

    void start(MySqlBinlogSplit split) {
        if (engine != null) {
            throw new IllegalStateException("A MySQL CDC source reader reads one binlog split, got a second");
        }
        if (split.window() != null && split.history().isEmpty()) {
            throw new IllegalStateException("The MySQL CDC binlog split for " + config.address() + " was restored from "
                    + "a checkpoint of an earlier build, which did not record the tables' definitions where the binlog "
                    + "starts: restart the job without its state");
        }
        ServerFlavor flavor;
        try (Connection connection = MySqlConnections.open(config)) {
            flavor = ServerFlavor.detect(connection);
        } catch (SQLException e) {
            throw MySqlConnections.connectFailure(config, e);
        }
        DebeziumProperties.Start start = split.offsetJson() == null ? DebeziumProperties.Start.SNAPSHOT
                : split.history().isEmpty() ? DebeziumProperties.Start.FROM_OFFSET_WITHOUT_HISTORY
                : DebeziumProperties.Start.RESUME;
        historyId = UUID.randomUUID().toString();
        SchemaHistoryRegistry.register(historyId, split.historyRecords());
        Properties properties = DebeziumProperties.build(config, flavor, start, split.offsetJson(), historyId, serverId);
        List<CdcSchema> known = new ArrayList<>();
        if (split.window() != null) {
            for (CapturedTable table : split.window().tables()) {
                known.add(table.schema());
            }
        }
        SourceRecordConverter converter = new SourceRecordConverter(DebeziumProperties.TOPIC_PREFIX, config::captures,
                known);
        LOG.info("Starting the {} connector for {} ({}, offset {}, server id {})", flavor, config.address(), start,
                split.offsetJson(), serverId);
        engine = DebeziumEngine.create(ChangeEventFormat.of(Connect.class))
                .using(properties)
                .using(getClass().getClassLoader())
                .using((success, message, error) -> {
                    if (!success && !stopped) {
                        failure = error != null ? error : new IllegalStateException(message);
                    }
                    stopped = true;
                })
                .notifying((records, committer) -> {
                    for (RecordChangeEvent<SourceRecord> event : records) {
                        SourceRecord record = event.record();
                        SourceElement element = new SourceElement.BinlogRecord(converter.convert(record),
                                record.sourceOffset(), SourceElement.BinlogRecord.isSnapshotOffset(record.sourceOffset()),
                                SourceRecordConverter.positionOf(record));
                        while (!queue.offer(element, 100, TimeUnit.MILLISECONDS)) {
                            if (stopped) {
                                throw new InterruptedException("MySQL CDC source reader closed");
                            }
                        }
                        committer.markProcessed(event);
                    }
                    committer.markBatchFinished();
                })
                .build();
        executor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "debezium-engine-" + config.address());
            t.setDaemon(true);
            return t;
        });
        executor.execute(engine);
    }

    /**
     * Stops the engine and returns once its thread has ended, so that a reader started next in this
     * JVM (after a failover, or the next split) never runs next to it: two engines of one server id
     * would fight over the replication connection and the MBean names.
     */
    @Override
    public void close() throws Exception {
        stopped = true;
        try {
            if (engine != null) {
                queue.clear();
                engine.close();
            }
            if (executor != null) {
                // The executor runs only the engine: it has terminated once the engine's run() returned.
                executor.shutdown();
                if (!executor.awaitTermination(CLOSE_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                    executor.shutdownNow();
                    if (!executor.awaitTermination(CLOSE_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                        LOG.warn("The Debezium engine for {} did not end within {} s of closing its reader",
                                config.address(), 2 * CLOSE_TIMEOUT_SECONDS);
                    }
                }
            }
        } finally {
            if (historyId != null) {
                SchemaHistoryRegistry.unregister(historyId);
            }
        }
    }
}
