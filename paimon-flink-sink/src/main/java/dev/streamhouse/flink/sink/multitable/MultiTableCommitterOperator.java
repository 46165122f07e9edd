package dev.streamhouse.flink.sink.multitable;

import dev.streamhouse.flink.sink.CommitAction;
import dev.streamhouse.flink.sink.committable.Committable;
import dev.streamhouse.flink.sink.committer.RestoredCheckpoint;
import dev.streamhouse.storage.catalog.Catalog;
import dev.streamhouse.storage.catalog.CatalogFactory;
import dev.streamhouse.storage.catalog.Identifier;
import dev.streamhouse.storage.commit.CommitMessage;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.table.sink.TableCommit;
import dev.streamhouse.flink.common.metrics.CommitMetrics;
import dev.streamhouse.flink.common.metrics.ExpirationMetrics;
import dev.streamhouse.flink.common.metrics.TableMetricGroup;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeutils.base.array.BytePrimitiveArraySerializer;
import org.apache.flink.core.io.SimpleVersionedSerialization;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.ChainingStrategy;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The single committer (parallelism 1) of a sink writing many tables: each checkpoint's files of each
 * table become that table's snapshot(s), exactly once, with the checkpoint id as identifier and one
 * commit user for all tables. It follows the single-table {@code CommitterOperator} table by table:
 * committables received since the last checkpoint are filed under it; when a checkpoint completes,
 * every pending one up to it is committed in ascending order, table after table (a table's commits
 * never wait for another's; a failure fails the job, whose restore then commits what is missing).
 *
 * <p><b>Restore.</b> Each pending checkpoint of each table is finished as the single-table committer
 * finishes its own ({@link RestoredCheckpoint}). A pending table that no longer exists is skipped with a
 * warning.
 *
 * <p><b>Batch, or no checkpointing.</b> Everything is committed at end of input, per table, with
 * identifier {@link Snapshot#BATCH_COMMIT_IDENTIFIER}, unless the table already has that commit.
 * Committables must name their table.
 */
public final class MultiTableCommitterOperator extends AbstractStreamOperator<Void>
        implements OneInputStreamOperator<Committable, Void>, BoundedOneInput {
    private static final long serialVersionUID = 1L;

    private final Map<String, String> catalogOptions;
    private final String initialCommitUser;

    private transient Catalog catalog;
    private transient String commitUser;
    private transient Map<String, TableCommit> commits;
    private transient ListState<byte[]> state;
    private transient NavigableMap<Long, Map<String, List<CommitMessage>>> pending;
    private transient Map<String, List<CommitMessage>> received;
    private transient long lastSnapshotCheckpoint;
    private transient boolean receivedCommitStarted;
    private transient Long currentWatermark;
    private transient NavigableMap<Long, Long> checkpointWatermarks;
    /** Each table's commit metrics, registered with its first commit. */
    private transient Map<String, CommitMetrics> metrics;
    private transient Map<String, ExpirationMetrics> expirations;
    /** When each checkpoint this committer took started, until it is committed. */
    private transient NavigableMap<Long, Long> checkpointStarts;

    public MultiTableCommitterOperator(Map<String, String> catalogOptions, String commitUser) {
        this.catalogOptions = Map.copyOf(catalogOptions);
        this.initialCommitUser = Objects.requireNonNull(commitUser, "commitUser");
        setChainingStrategy(ChainingStrategy.ALWAYS);
    }

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        super.initializeState(context);
        catalog = CatalogFactory.createCatalog(new Options(catalogOptions));
        commits = new HashMap<>();
        metrics = new HashMap<>();
        expirations = new HashMap<>();
        checkpointStarts = new TreeMap<>();
        state = context.getOperatorStateStore().getListState(
                new ListStateDescriptor<>("streamhouse-multi-table-committer", BytePrimitiveArraySerializer.INSTANCE));
        pending = new TreeMap<>();
        received = new TreeMap<>();
        checkpointWatermarks = new TreeMap<>();
        commitUser = initialCommitUser;
        lastSnapshotCheckpoint = context.getRestoredCheckpointId().orElse(-1L);
        if (context.isRestored()) {
            for (byte[] bytes : state.get()) {
                MultiTableCommitterState restored = SimpleVersionedSerialization.readVersionAndDeSerialize(
                        MultiTableCommitterState.Serializer.INSTANCE, bytes);
                commitUser = restored.commitUser();
                restored.pending().forEach((checkpoint, tables) -> pending.merge(checkpoint, tables, (a, b) -> {
                    Map<String, List<CommitMessage>> merged = new TreeMap<>(a);
                    b.forEach((t, m) -> merged.merge(t, m, (x, y) -> {
                        List<CommitMessage> all = new ArrayList<>(x);
                        all.addAll(y);
                        return all;
                    }));
                    return merged;
                }));
            }
        }
        if (!pending.isEmpty()) {
            commitRestored();
        }
    }

    private TableCommit commitOf(String table) {
        return commits.computeIfAbsent(table, t -> {
            TableCommit commit = catalog.getTable(Identifier.fromString(t)).newStreamCommit(commitUser);
            CommitMetrics tableMetrics = metrics.computeIfAbsent(t,
                    name -> new CommitMetrics(TableMetricGroup.of(getMetricGroup(), name)).withSinkCounters(
                            getMetricGroup().getIOMetricGroup().getNumRecordsOutCounter(),
                            getMetricGroup().getIOMetricGroup().getNumBytesOutCounter()));
            ExpirationMetrics expirationMetrics = expirations.computeIfAbsent(t,
                    name -> new ExpirationMetrics(TableMetricGroup.of(getMetricGroup(), name)));
            return commit.onCommitStats(tableMetrics::report).onExpirationStats(expirationMetrics::report);
        });
    }

    private void commitRestored() {
        for (Map.Entry<Long, Map<String, List<CommitMessage>>> e : pending.entrySet()) {
            long checkpoint = e.getKey();
            for (Map.Entry<String, List<CommitMessage>> t : e.getValue().entrySet()) {
                String table = t.getKey();
                if (!catalog.tableExists(Identifier.fromString(table))) {
                    LOG.warn("Not committing restored checkpoint {} of table {}: the table no longer exists",
                            checkpoint, table);
                    continue;
                }
                TableCommit commit = commitOf(table);
                boolean missing = !commit.filterCommitted(List.of(checkpoint)).isEmpty();
                RestoredCheckpoint.finish(commit, CommitAction.append(), checkpoint, t.getValue(), missing, table);
            }
        }
        pending.clear();
    }

    @Override
    public void processElement(StreamRecord<Committable> element) {
        Committable c = element.getValue();
        String table = c.table().orElseThrow(() -> new IllegalStateException("Cannot commit " + c
                + ": a multi-table sink's committables must name their table"));
        if (!c.isEndOfInput() && c.checkpointId() <= lastSnapshotCheckpoint) {
            throw new IllegalStateException("Cannot commit to table " + table + ": files written before checkpoint "
                    + c.checkpointId() + " arrived after the committer took checkpoint " + lastSnapshotCheckpoint
                    + "; the sink needs aligned exactly-once checkpoints");
        }
        received.computeIfAbsent(table, t -> new ArrayList<>()).addAll(c.messages());
    }

    @Override
    public void processWatermark(org.apache.flink.streaming.api.watermark.Watermark mark) throws Exception {
        super.processWatermark(mark);
        if (mark.getTimestamp() != Long.MAX_VALUE) {
            currentWatermark = mark.getTimestamp();
        }
    }

    @Override
    public void snapshotState(StateSnapshotContext context) throws Exception {
        super.snapshotState(context);
        long checkpointId = context.getCheckpointId();
        if (!received.isEmpty()) {
            pending.put(checkpointId, received);
            received = new TreeMap<>();
        }
        if (currentWatermark != null) {
            checkpointWatermarks.put(checkpointId, currentWatermark);
        }
        lastSnapshotCheckpoint = checkpointId;
        checkpointStarts.put(checkpointId, context.getCheckpointTimestamp());
        state.update(List.of(SimpleVersionedSerialization.writeVersionAndSerialize(
                MultiTableCommitterState.Serializer.INSTANCE, new MultiTableCommitterState(commitUser, pending))));
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) throws Exception {
        super.notifyCheckpointComplete(checkpointId);
        Iterator<Map.Entry<Long, Map<String, List<CommitMessage>>>> it =
                pending.headMap(checkpointId, true).entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<Long, Map<String, List<CommitMessage>>> e = it.next();
            Long watermark = checkpointWatermarks.get(e.getKey());
            Long started = checkpointStarts.get(e.getKey());
            for (Map.Entry<String, List<CommitMessage>> t : e.getValue().entrySet()) {
                commitOf(t.getKey()).commit(e.getKey(), watermark, Map.of(), t.getValue());
                if (started != null) {
                    metrics.get(t.getKey()).reportFreshness(System.currentTimeMillis() - started);
                }
            }
            it.remove();
        }
        checkpointWatermarks.headMap(checkpointId, true).clear();
        checkpointStarts.headMap(checkpointId, true).clear();
    }

    @Override
    public void endInput() {
        if (getOperatorConfig().isCheckpointingEnabled()) {
            return;
        }
        long identifier = Snapshot.BATCH_COMMIT_IDENTIFIER;
        receivedCommitStarted = true;
        for (Map.Entry<String, List<CommitMessage>> t : received.entrySet()) {
            TableCommit commit = commitOf(t.getKey());
            if (commit.filterCommitted(List.of(identifier)).isEmpty()) {
                LOG.info("Table {} already has the end-of-input commit of commit user {}", t.getKey(), commitUser);
            } else {
                commit.commit(identifier, t.getValue());
            }
        }
        received = new TreeMap<>();
    }

    @Override
    public void close() throws Exception {
        try {
            if (received != null && !receivedCommitStarted) {
                for (Map.Entry<String, List<CommitMessage>> t : received.entrySet()) {
                    try {
                        commitOf(t.getKey()).abort(t.getValue());
                    } catch (RuntimeException e) {
                        LOG.warn("Cannot delete the uncommitted files of table {}", t.getKey(), e);
                    }
                }
                received = new TreeMap<>();
            }
            if (commits != null) {
                commits.values().forEach(TableCommit::close);
            }
            if (catalog != null) {
                catalog.close();
            }
        } finally {
            super.close();
        }
    }
}
