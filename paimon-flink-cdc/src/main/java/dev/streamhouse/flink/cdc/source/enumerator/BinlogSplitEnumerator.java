package dev.streamhouse.flink.cdc.source.enumerator;

import dev.streamhouse.flink.cdc.source.MySqlSourceConfig;
import dev.streamhouse.flink.cdc.source.coordination.SnapshotFinishedEvent;
import dev.streamhouse.flink.cdc.source.split.MySqlBinlogSplit;
import dev.streamhouse.flink.cdc.source.split.MySqlSplit;
import java.util.List;
import org.apache.flink.api.connector.source.SourceEvent;
import org.apache.flink.api.connector.source.SplitEnumerator;
import org.apache.flink.api.connector.source.SplitEnumeratorContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The enumerator that serves only the binlog split, for every start but a chunked snapshot (which
 * {@link ChunkedSnapshotEnumerator} serves, chunks first): it hands the one binlog split to the
 * first reader that asks (and again after that reader fails).
 *
 * <p>With Debezium's snapshot (startup mode {@code initial} with
 * {@code 'scan.incremental.snapshot.enabled' = 'false'}) the binlog split begins with it, and
 * checkpoints wait for the snapshot phase: Debezium's snapshot cannot resume midway, and
 * restarting it after rows were already committed downstream would leave rows deleted in between
 * behind. So while the split snapshots, {@link #snapshotState} fails, which makes Flink skip that
 * checkpoint (a failed trigger does not count against the tolerable checkpoint failures) without
 * failing the job; once the reader reports the snapshot done, checkpoints hold binlog offsets.
 */
public final class BinlogSplitEnumerator implements SplitEnumerator<MySqlSplit, MySqlCdcEnumeratorState> {

    private static final Logger LOG = LoggerFactory.getLogger(BinlogSplitEnumerator.class);

    private final SplitEnumeratorContext<MySqlSplit> context;
    private final MySqlSourceConfig config;
    private MySqlBinlogSplit unassigned;
    private boolean created;
    private boolean snapshotFinished;

    public BinlogSplitEnumerator(SplitEnumeratorContext<MySqlSplit> context, MySqlSourceConfig config,
            MySqlCdcEnumeratorState restored) {
        this.context = context;
        this.config = config;
        if (restored != null) {
            this.unassigned = restored.unassigned();
            this.created = restored.created();
            this.snapshotFinished = restored.snapshotFinished();
        }
    }

    @Override
    public void start() {
        if (!created) {
            unassigned = InitialSplit.create(config);
            created = true;
            snapshotFinished = !unassigned.snapshotPending();
            LOG.info("MySQL CDC source for {} starts with {} ({})", config.address(), config.startup(), unassigned);
        }
    }

    @Override
    public void handleSplitRequest(int subtaskId, String requesterHostname) {
        if (unassigned != null) {
            context.assignSplit(unassigned, subtaskId);
            unassigned = null;
        }
    }

    @Override
    public void addSplitsBack(List<MySqlSplit> splits, int subtaskId) {
        for (MySqlSplit split : splits) {
            MySqlBinlogSplit binlog = (MySqlBinlogSplit) split;
            unassigned = binlog;
            if (binlog.snapshotPending()) {
                snapshotFinished = false;
            }
        }
    }

    @Override
    public void addReader(int subtaskId) {}

    @Override
    public void handleSourceEvent(int subtaskId, SourceEvent sourceEvent) {
        if (sourceEvent instanceof SnapshotFinishedEvent) {
            snapshotFinished = true;
        }
    }

    @Override
    public MySqlCdcEnumeratorState snapshotState(long checkpointId) {
        if (!snapshotFinished) {
            throw new IllegalStateException("Checkpoint " + checkpointId + " skipped: the MySQL CDC source for "
                    + config.address() + " is still snapshotting its tables, and a snapshot cannot resume from a "
                    + "checkpoint; checkpoints resume once it reads the binlog");
        }
        return new MySqlCdcEnumeratorState(unassigned, created, true);
    }

    @Override
    public void close() {}
}
