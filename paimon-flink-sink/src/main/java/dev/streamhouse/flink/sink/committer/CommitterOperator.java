package dev.streamhouse.flink.sink.committer;

import dev.streamhouse.flink.sink.CommitAction;
import dev.streamhouse.flink.sink.committable.Committable;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.table.Table;
import dev.streamhouse.storage.commit.CommitMessage;
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
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * The sink's single committer (parallelism 1): turns the writers' {@link Committable}s into snapshots,
 * each checkpoint's files exactly once.
 *
 * <p><b>Streaming with checkpoints.</b> Committables received since the last checkpoint are filed,
 * in {@link #snapshotState}, under that checkpoint's id (with aligned exactly-once checkpoints these
 * are exactly the files written before its barrier; a writer's end-of-input files go to the first
 * checkpoint after the writer ended, i.e. its final checkpoint). When checkpoint {@code c} completes,
 * every pending id {@code <= c} is committed in ascending order with identifier = checkpoint id, then
 * dropped from state. Nothing is ever committed under {@code Long.MAX_VALUE} in a streaming job, so a
 * writer that finished early cannot make later checkpoints look committed. A bounded streaming job
 * commits its last files in its final checkpoint (checkpoints after tasks finish must be enabled; the
 * sink builder checks).
 *
 * <p><b>Batch, or streaming without checkpointing.</b> Everything received is committed once at end of
 * input with identifier {@code Long.MAX_VALUE}, unless {@link TableCommit#filterCommitted} shows that
 * an earlier attempt of this committer already did.
 *
 * <p><b>Restore.</b> State holds the commit user and the pending checkpoints. On restore the committer
 * commits, while initializing, the pending ids the table does not have yet (a failure may have hit
 * between a checkpoint's completion and its commit); writers of primary-key tables wait for this (see
 * {@code WriterOperator}). Such a restored commit carries only the checkpoint's data increments, in one
 * snapshot; its compactions are dropped and their output files deleted. Restored writers reload their
 * buckets from the table and compact again later, so nothing is lost, and a writer that waited for the
 * checkpoint never sees a compaction land after it loaded a bucket (it would later compact files that
 * are gone: a commit conflict on every restart). A restored checkpoint the table already has may have
 * lost its compactions between its APPEND and COMPACT snapshots; their files are then deleted
 * ({@link TableCommit#abortCompactionsIfNotCommitted}).
 *
 * <p><b>Tables.</b> A committable that names a table ({@link Committable#table()}) must name this
 * committer's table ({@code fullName()}); any other fails the job before its files reach a commit.
 * Committables naming no table are taken as this table's.
 *
 * <p><b>Failure.</b> Files received but not yet in any checkpoint (and never handed to a commit) can
 * never be committed: the job restarts from an earlier checkpoint and rewrites them. {@link #close()}
 * deletes them. Files of pending checkpoints are kept: a restore may still commit them.
 */
public final class CommitterOperator extends AbstractStreamOperator<Void>
        implements OneInputStreamOperator<Committable, Void>, BoundedOneInput {
    private static final long serialVersionUID = 1L;

    private final Table table;
    private final String initialCommitUser;
    private final CommitAction action;

    private transient String commitUser;
    private transient TableCommit commit;
    private transient CommitMetrics metrics;
    /** When each checkpoint this committer took started (its trigger time), until it is committed. */
    private transient TreeMap<Long, Long> checkpointStarts;
    private transient ListState<byte[]> state;
    private transient NavigableMap<Long, List<CommitMessage>> pending;
    /** Messages received since the last snapshot; in no checkpoint yet. */
    private transient List<CommitMessage> received;
    private transient long lastSnapshotCheckpoint;
    /** Whether {@link #received} was handed to a commit (then its outcome decides, never delete). */
    private transient boolean receivedCommitStarted;
    /** The input watermark (not the end-of-input Long.MAX_VALUE), or null before the first one. */
    private transient Long currentWatermark;
    /** The watermark at each checkpoint not yet complete, recorded in its snapshot (not kept across restores). */
    private transient NavigableMap<Long, Long> checkpointWatermarks;

    public CommitterOperator(Table table, String commitUser, CommitAction action) {
        this.table = Objects.requireNonNull(table, "table");
        this.initialCommitUser = Objects.requireNonNull(commitUser, "commitUser");
        this.action = Objects.requireNonNull(action, "action");
        setChainingStrategy(ChainingStrategy.ALWAYS);
    }

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        super.initializeState(context);
        state = context.getOperatorStateStore().getListState(
                new ListStateDescriptor<>("streamhouse-committer", BytePrimitiveArraySerializer.INSTANCE));
        pending = new TreeMap<>();
        checkpointWatermarks = new TreeMap<>();
        received = new ArrayList<>();
        commitUser = initialCommitUser;
        lastSnapshotCheckpoint = context.getRestoredCheckpointId().orElse(-1L);
        if (context.isRestored()) {
            for (byte[] bytes : state.get()) {
                CommitterState restored = SimpleVersionedSerialization.readVersionAndDeSerialize(
                        CommitterStateSerializer.INSTANCE, bytes);
                commitUser = restored.commitUser();
                pending.putAll(restored.pending());
            }
        }
        commit = table.newStreamCommit(commitUser);
        metrics = new CommitMetrics(TableMetricGroup.of(getMetricGroup(), table.fullName())).withSinkCounters(
                getMetricGroup().getIOMetricGroup().getNumRecordsOutCounter(),
                getMetricGroup().getIOMetricGroup().getNumBytesOutCounter());
        commit.onCommitStats(metrics::report);
        commit.onExpirationStats(
                new ExpirationMetrics(TableMetricGroup.of(getMetricGroup(), table.fullName()))::report);
        checkpointStarts = new TreeMap<>();
        if (!pending.isEmpty()) {
            commitRestored();
        }
    }

    private void commitRestored() {
        Set<Long> missing = new HashSet<>(commit.filterCommitted(new ArrayList<>(pending.keySet())));
        for (Map.Entry<Long, List<CommitMessage>> e : pending.entrySet()) {
            RestoredCheckpoint.finish(commit, action, e.getKey(), e.getValue(), missing.contains(e.getKey()),
                    table.fullName());
        }
        pending.clear();
    }

    @Override
    public void processElement(StreamRecord<Committable> element) {
        Committable c = element.getValue();
        if (c.table().isPresent() && !c.table().get().equals(table.fullName())) {
            throw new IllegalStateException("Cannot commit to table " + table.fullName() + ": received " + c
                    + ", files of another table; each table's writers must send their committables to the"
                    + " committer of that table, check how the job connects its sinks");
        }
        if (!c.isEndOfInput() && c.checkpointId() <= lastSnapshotCheckpoint) {
            throw new IllegalStateException("Cannot commit to table " + table.fullName() + ": files written before"
                    + " checkpoint " + c.checkpointId() + " arrived after the committer took checkpoint "
                    + lastSnapshotCheckpoint + "; the sink needs aligned exactly-once checkpoints");
        }
        received.addAll(c.messages());
    }

    /**
     * Remembers the watermark, which the snapshots of the following checkpoints record (as Paimon's
     * committer does; {@code tag.automatic-creation} = watermark reads it). The end-of-input
     * {@code Long.MAX_VALUE} is not taken.
     */
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
            pending.computeIfAbsent(checkpointId, id -> new ArrayList<>()).addAll(received);
            received = new ArrayList<>();
        }
        if (currentWatermark != null) {
            checkpointWatermarks.put(checkpointId, currentWatermark);
        }
        lastSnapshotCheckpoint = checkpointId;
        checkpointStarts.put(checkpointId, context.getCheckpointTimestamp());
        state.update(List.of(SimpleVersionedSerialization.writeVersionAndSerialize(
                CommitterStateSerializer.INSTANCE, new CommitterState(commitUser, pending))));
    }

    /**
     * Commits every pending checkpoint up to {@code checkpointId}. When there is none, the table may
     * still ask for a snapshot without changes ({@link TableCommit#forceCreatingSnapshot}: automatic
     * tags at a period's end, or a watermark older than {@code snapshot.watermark-idle-timeout}); it is
     * committed under {@code checkpointId}, with that checkpoint's watermark, as Paimon's committer does.
     */
    @Override
    public void notifyCheckpointComplete(long checkpointId) throws Exception {
        super.notifyCheckpointComplete(checkpointId);
        boolean committed = false;
        Iterator<Map.Entry<Long, List<CommitMessage>>> it = pending.headMap(checkpointId, true).entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<Long, List<CommitMessage>> e = it.next();
            action.commit(commit, e.getKey(), checkpointWatermarks.get(e.getKey()), e.getValue());
            Long started = checkpointStarts.get(e.getKey());
            if (started != null) {
                metrics.reportFreshness(System.currentTimeMillis() - started);
            }
            it.remove();
            committed = true;
        }
        checkpointStarts.headMap(checkpointId, true).clear();
        if (!committed && !action.replacesData() && commit.forceCreatingSnapshot()) {
            LOG.info("Committing an empty snapshot of table {} for checkpoint {}: its automatic tags need one",
                    table.fullName(), checkpointId);
            commit.commitEmpty(checkpointId, checkpointWatermarks.get(checkpointId));
        }
        checkpointWatermarks.headMap(checkpointId, true).clear();
    }

    @Override
    public void endInput() {
        if (getOperatorConfig().isCheckpointingEnabled()) {
            // The final checkpoint, taken after every writer ended, files and commits the rest.
            return;
        }
        if (!pending.isEmpty()) {
            throw new IllegalStateException("Cannot commit to table " + table.fullName() + ": checkpoints "
                    + pending.keySet() + " are pending in a job without checkpointing");
        }
        if (received.isEmpty() && !action.replacesData()) {
            return;
        }
        long identifier = Snapshot.BATCH_COMMIT_IDENTIFIER;
        receivedCommitStarted = true;
        if (commit.filterCommitted(List.of(identifier)).isEmpty()) {
            LOG.info("Table {} already has the end-of-input commit of commit user {}; not committing again",
                    table.fullName(), commitUser);
        } else {
            action.commit(commit, identifier, received);
        }
        received = new ArrayList<>();
    }

    @Override
    public void close() throws Exception {
        try {
            if (received != null && !received.isEmpty() && !receivedCommitStarted && commit != null) {
                LOG.info("Deleting the files of {} messages to table {} that no checkpoint holds", received.size(),
                        table.fullName());
                commit.abort(received);
                received = new ArrayList<>();
            }
            if (commit != null) {
                commit.close();
            }
        } finally {
            super.close();
        }
    }
}
