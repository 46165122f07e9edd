package dev.streamhouse.flink.sink.committer;

import dev.streamhouse.flink.common.metrics.CommitMetrics;
import dev.streamhouse.flink.common.metrics.ExpirationMetrics;
import dev.streamhouse.flink.common.metrics.TableMetricGroup;
import dev.streamhouse.flink.sink.CommitAction;
import dev.streamhouse.flink.sink.committable.Committable;
import dev.streamhouse.storage.commit.CommitMessage;
import dev.streamhouse.storage.snapshot.Snapshot;
import dev.streamhouse.storage.table.Table;
import dev.streamhouse.storage.table.sink.TableCommit;
import org.apache.flink.metrics.groups.OperatorMetricGroup;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The exactly-once logic of a sink's committer, for one table or many: the single-table
 * {@link CommitterOperator} and the multi-table committer are thin Flink operators around it that only
 * differ in how they find tables and how they checkpoint what it holds.
 *
 * <p><b>Streaming with checkpoints.</b> Messages received since the last checkpoint are filed, per
 * table, under that checkpoint's id ({@link #snapshot}); with aligned exactly-once checkpoints these are
 * exactly the files written before its barrier. When checkpoint {@code c} completes, every pending id
 * {@code <= c} is committed in ascending order, table after table, with identifier = checkpoint id, then
 * dropped. A table this committer has opened that gets no files at {@code c} may still ask for a
 * snapshot without changes ({@link TableCommit#forceCreatingSnapshot}: automatic tags at a period's end,
 * an idle watermark); it is committed under {@code c}, as Apache Paimon's committer does.
 *
 * <p><b>Batch, or streaming without checkpointing.</b> Everything received is committed once per table
 * at end of input with identifier {@link Snapshot#BATCH_COMMIT_IDENTIFIER}, unless the table shows that
 * an earlier attempt of the same commit user already did. Pending checkpoints there mean the job is
 * miswired; refused.
 *
 * <p><b>Restore.</b> Each pending checkpoint of each table is finished ({@link RestoredCheckpoint}):
 * committed if the table does not have it yet (a failure hit between its completion and its commit),
 * otherwise only its lost compactions cleaned up. A table that no longer exists is skipped with a warning.
 *
 * <p><b>Failure.</b> Files received but in no checkpoint yet (and never handed to a commit) can never be
 * committed: the job restarts from an earlier checkpoint and rewrites them; {@link #close()} deletes them.
 * Files of pending checkpoints are kept: a restore may still commit them.
 */
public final class ExactlyOnceCommitter implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ExactlyOnceCommitter.class);

    /** Where the committer finds the tables it commits to, by full name ({@code db.table}). */
    public interface Tables {
        Table get(String fullName);

        boolean exists(String fullName);
    }

    private final String commitUser;
    private final CommitAction action;
    private final Tables tables;
    private final OperatorMetricGroup metricGroup;
    /** Tables committed at end of input even without files (an overwrite with no rows still removes rows). */
    private final Set<String> alwaysCommitted;

    private final Map<String, OpenTable> open = new TreeMap<>();
    private final NavigableMap<Long, Map<String, List<CommitMessage>>> pending = new TreeMap<>();
    /** Messages received since the last snapshot, per table; in no checkpoint yet. */
    private Map<String, List<CommitMessage>> received = new TreeMap<>();
    private long lastSnapshotCheckpoint;
    /** Whether {@link #received} was handed to a commit (then its outcome decides, never delete). */
    private boolean receivedCommitStarted;
    /** The input watermark (not the end-of-input Long.MAX_VALUE), or null before the first one. */
    private Long currentWatermark;
    /** The watermark at each checkpoint not yet complete (not kept across restores). */
    private final NavigableMap<Long, Long> checkpointWatermarks = new TreeMap<>();
    /** When each checkpoint this committer took started (its trigger time), until it is committed. */
    private final NavigableMap<Long, Long> checkpointStarts = new TreeMap<>();

    private record OpenTable(TableCommit commit, CommitMetrics metrics) {}

    /**
     * @param commitUser the job's commit user (the restored one after a restore)
     * @param restoredCheckpoint the checkpoint the job restored from, or -1
     * @param alwaysCommitted tables opened at once, and committed at end of input even without files when
     *     the action replaces data
     */
    public ExactlyOnceCommitter(String commitUser, long restoredCheckpoint, CommitAction action, Tables tables,
            Set<String> alwaysCommitted, OperatorMetricGroup metricGroup) {
        this.commitUser = Objects.requireNonNull(commitUser, "commitUser");
        this.lastSnapshotCheckpoint = restoredCheckpoint;
        this.action = Objects.requireNonNull(action, "action");
        this.tables = Objects.requireNonNull(tables, "tables");
        this.alwaysCommitted = new LinkedHashSet<>(alwaysCommitted);
        this.metricGroup = Objects.requireNonNull(metricGroup, "metricGroup");
        this.alwaysCommitted.forEach(this::commitOf);
    }

    public String commitUser() {
        return commitUser;
    }

    /** The commit of {@code table}, opened with its metrics on first use. */
    private TableCommit commitOf(String table) {
        return open.computeIfAbsent(table, name -> {
            TableCommit commit = tables.get(name).newStreamCommit(commitUser);
            CommitMetrics metrics = new CommitMetrics(TableMetricGroup.of(metricGroup, name)).withSinkCounters(
                    metricGroup.getIOMetricGroup().getNumRecordsOutCounter(),
                    metricGroup.getIOMetricGroup().getNumBytesOutCounter());
            commit.onCommitStats(metrics::report)
                    .onExpirationStats(new ExpirationMetrics(TableMetricGroup.of(metricGroup, name))::report);
            return new OpenTable(commit, metrics);
        }).commit();
    }

    /** Finishes the pending checkpoints of a restored state: commits, per table, exactly what is missing. */
    public void restore(NavigableMap<Long, Map<String, List<CommitMessage>>> restored) {
        restored.forEach((checkpoint, byTable) -> byTable.forEach((table, messages) -> pending
                .computeIfAbsent(checkpoint, id -> new TreeMap<>())
                .computeIfAbsent(table, t -> new ArrayList<>()).addAll(messages)));
        Map<String, List<Long>> checkpointsByTable = new TreeMap<>();
        pending.forEach((checkpoint, byTable) -> byTable.keySet().forEach(
                table -> checkpointsByTable.computeIfAbsent(table, t -> new ArrayList<>()).add(checkpoint)));
        Map<String, Set<Long>> missing = new TreeMap<>();
        for (Map.Entry<String, List<Long>> e : checkpointsByTable.entrySet()) {
            if (!tables.exists(e.getKey())) {
                LOG.warn("Not committing restored checkpoints {} of table {}: the table no longer exists",
                        e.getValue(), e.getKey());
                continue;
            }
            missing.put(e.getKey(), new HashSet<>(commitOf(e.getKey()).filterCommitted(e.getValue())));
        }
        pending.forEach((checkpoint, byTable) -> byTable.forEach((table, messages) -> {
            Set<Long> missingOfTable = missing.get(table);
            if (missingOfTable != null) {
                RestoredCheckpoint.finish(commitOf(table), action, checkpoint, messages,
                        missingOfTable.contains(checkpoint), table);
            }
        }));
        pending.clear();
    }

    /** Takes the messages of a committable of {@code table}: files written before a checkpoint's barrier, or at end of input. */
    public void receive(String table, Committable committable) {
        if (!committable.isEndOfInput() && committable.checkpointId() <= lastSnapshotCheckpoint) {
            throw new IllegalStateException("Cannot commit to table " + table + ": files written before checkpoint "
                    + committable.checkpointId() + " arrived after the committer took checkpoint " + lastSnapshotCheckpoint
                    + "; the sink needs aligned exactly-once checkpoints");
        }
        if (!committable.messages().isEmpty()) {
            received.computeIfAbsent(table, t -> new ArrayList<>()).addAll(committable.messages());
        }
    }

    /**
     * Remembers the watermark, which the snapshots of the following checkpoints record (as Paimon's
     * committer does; {@code tag.automatic-creation} = watermark reads it). The end-of-input
     * {@code Long.MAX_VALUE} is not taken.
     */
    public void watermark(long timestamp) {
        if (timestamp != Long.MAX_VALUE) {
            currentWatermark = timestamp;
        }
    }

    /** Files what was received under {@code checkpointId}; returns every pending checkpoint, to be checkpointed. */
    public NavigableMap<Long, Map<String, List<CommitMessage>>> snapshot(long checkpointId, long checkpointTimestamp) {
        if (!received.isEmpty()) {
            Map<String, List<CommitMessage>> filed = pending.computeIfAbsent(checkpointId, id -> new TreeMap<>());
            received.forEach((table, messages) -> filed.computeIfAbsent(table, t -> new ArrayList<>()).addAll(messages));
            received = new TreeMap<>();
        }
        if (currentWatermark != null) {
            checkpointWatermarks.put(checkpointId, currentWatermark);
        }
        lastSnapshotCheckpoint = checkpointId;
        checkpointStarts.put(checkpointId, checkpointTimestamp);
        return Collections.unmodifiableNavigableMap(pending);
    }

    /** Commits every pending checkpoint up to {@code checkpointId}, then empty snapshots tables ask for. */
    public void checkpointComplete(long checkpointId) {
        Set<String> committed = new HashSet<>();
        Iterator<Map.Entry<Long, Map<String, List<CommitMessage>>>> it =
                pending.headMap(checkpointId, true).entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<Long, Map<String, List<CommitMessage>>> e = it.next();
            Long watermark = checkpointWatermarks.get(e.getKey());
            Long started = checkpointStarts.get(e.getKey());
            for (Map.Entry<String, List<CommitMessage>> t : e.getValue().entrySet()) {
                action.commit(commitOf(t.getKey()), e.getKey(), watermark, t.getValue());
                if (started != null) {
                    open.get(t.getKey()).metrics().reportFreshness(System.currentTimeMillis() - started);
                }
                committed.add(t.getKey());
            }
            it.remove();
        }
        checkpointStarts.headMap(checkpointId, true).clear();
        if (!action.replacesData()) {
            for (Map.Entry<String, OpenTable> t : open.entrySet()) {
                if (!committed.contains(t.getKey()) && t.getValue().commit().forceCreatingSnapshot()) {
                    LOG.info("Committing an empty snapshot of table {} for checkpoint {}: its automatic tags need one",
                            t.getKey(), checkpointId);
                    t.getValue().commit().commitEmpty(checkpointId, checkpointWatermarks.get(checkpointId));
                }
            }
        }
        checkpointWatermarks.headMap(checkpointId, true).clear();
    }

    /** End of input in a job without checkpointing: commits everything received, once per table. */
    public void endInputWithoutCheckpoints() {
        if (!pending.isEmpty()) {
            throw new IllegalStateException("Cannot commit to tables " + tablesOf(pending) + ": checkpoints "
                    + pending.keySet() + " are pending in a job without checkpointing");
        }
        Set<String> toCommit = new LinkedHashSet<>(received.keySet());
        if (action.replacesData()) {
            toCommit.addAll(alwaysCommitted);
        }
        long identifier = Snapshot.BATCH_COMMIT_IDENTIFIER;
        receivedCommitStarted = true;
        for (String table : toCommit) {
            TableCommit commit = commitOf(table);
            if (commit.filterCommitted(List.of(identifier)).isEmpty()) {
                LOG.info("Table {} already has the end-of-input commit of commit user {}; not committing again",
                        table, commitUser);
            } else {
                action.commit(commit, identifier, received.getOrDefault(table, List.of()));
            }
        }
        received = new TreeMap<>();
    }

    private static Set<String> tablesOf(NavigableMap<Long, Map<String, List<CommitMessage>>> checkpoints) {
        Set<String> names = new TreeSet<>();
        checkpoints.values().forEach(byTable -> names.addAll(byTable.keySet()));
        return names;
    }

    /** Deletes the files of messages no checkpoint holds, then closes every table's commit. */
    @Override
    public void close() {
        if (!receivedCommitStarted) {
            for (Map.Entry<String, List<CommitMessage>> t : received.entrySet()) {
                if (t.getValue().isEmpty()) {
                    continue;
                }
                LOG.info("Deleting the files of {} messages to table {} that no checkpoint holds", t.getValue().size(),
                        t.getKey());
                try {
                    commitOf(t.getKey()).abort(t.getValue());
                } catch (RuntimeException e) {
                    LOG.warn("Cannot delete the uncommitted files of table {}", t.getKey(), e);
                }
            }
        }
        received = new TreeMap<>();
        RuntimeException failure = null;
        for (OpenTable t : open.values()) {
            try {
                t.commit().close();
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        open.clear();
        if (failure != null) {
            throw failure;
        }
    }
}
