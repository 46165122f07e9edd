package dev.streamhouse.flink.sink.writer;

import dev.streamhouse.flink.common.metrics.TableMetricGroup;
import dev.streamhouse.flink.common.metrics.WriterMetrics;

import dev.streamhouse.flink.sink.committable.Committable;
import dev.streamhouse.flink.sink.routing.FixedBucketPartitioner;
import dev.streamhouse.flink.common.data.RowDataView;
import dev.streamhouse.storage.table.Table;
import dev.streamhouse.storage.commit.CommitMessage;
import dev.streamhouse.storage.table.sink.TableCommit;
import dev.streamhouse.storage.table.sink.TableWrite;
import dev.streamhouse.storage.table.sink.WriteContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeutils.base.array.BytePrimitiveArraySerializer;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * A writer subtask of the sink: writes the rows routed to it through one storage {@link TableWrite}
 * and hands the finished files to the committer as a {@link Committable} just before each checkpoint
 * barrier ({@link #prepareSnapshotPreBarrier}) and at the end of its input ({@link #endInput}). Each
 * committable names the table ({@code fullName()}), which the committer checks.
 *
 * <p><b>Routing contract.</b> The sink routes rows so that each (partition, bucket) has exactly one
 * writer subtask. Rows of a dynamic-bucket table come with their bucket from the sink's
 * {@link BucketAssignerOperator}s ({@link AssignedBucketWriterOperator}), routed by (partition,
 * bucket) like fixed buckets; the writer maintains those buckets' hash index files. Subclasses say
 * what an input element is: {@link WriterOperator} takes plain rows.
 *
 * <p><b>Level 0 left behind.</b> For tables whose commits move level 0 up (lookup changelog, first-row),
 * the writer opens, when it starts, the buckets it owns that hold level-0 files
 * ({@link TableWrite#resumeLevelZero}), so their next checkpoint compacts them: after a failure
 * between a checkpoint's APPEND and COMPACT snapshots (the restored commit drops compactions), their
 * changelog is produced then, not whenever the bucket gets its next row (Apache Paimon keeps the
 * active buckets in its state for the same reason).
 *
 * <p><b>Failure.</b> {@link #close()} closes the table write, which deletes the files not yet handed
 * out. Files already handed out belong to the committer.
 *
 * <p><b>Compaction.</b> Writers of primary-key and fixed-bucket append tables compact their buckets
 * in the background; a checkpoint hands out the compactions that finished and leaves the running ones
 * to a later checkpoint, so compaction never holds the barrier (a bucket with too many sorted runs
 * stalls its next write instead: back pressure); the end of the input waits for the running ones.
 * Tables may ask every commit to wait ({@code commit.force-compact}, {@code lookup-wait},
 * {@code full-compaction.delta-commits}).
 *
 * <p><b>Restore.</b> A primary-key or fixed-bucket append writer continues a bucket from the table's
 * latest snapshot (levels, sequence numbers, hash index, compaction candidates), read when the bucket
 * is first written. After a restore the
 * committer may still have to commit checkpoints this writer handed files to (it does so while
 * initializing, data increments only); continuing from a snapshot without them would reuse sequence
 * numbers. So the writer keeps the last checkpoint to which it handed new data files and, on restore,
 * waits until the table shows that checkpoint committed by the job's commit user before it writes
 * anything. Append tables without buckets read nothing back and do not wait. (A writer chained with the committer, at
 * parallelism 1, is safe: Flink initializes a chain from its tail, so the committer goes first.)
 *
 * <p>The state is plain split-redistributed operator state, not union state: Flink refuses every
 * checkpoint of a vertex with union state once some of its subtasks finished, which would stop a
 * bounded job's remaining writers from committing (and loses the finished writers' last files if a
 * failure follows). With unchanged parallelism (every failover) each subtask gets its own entry back,
 * so the wait is exact. After a rescale a subtask gets the entries of some former subtasks and waits
 * for the newest of those; a bucket that moved to another subtask is then only protected if that
 * subtask also waits. Rescale primary-key jobs from a savepoint taken with stop-with-savepoint, which
 * commits everything before the job stops.
 */
public abstract class AbstractWriterOperator<IN> extends AbstractStreamOperator<Committable>
        implements OneInputStreamOperator<IN, Committable>, BoundedOneInput {
    private static final long serialVersionUID = 1L;


    private final Table table;
    private final String initialCommitUser;
    private final boolean bucketsAssigned;
    private final boolean replacesData;

    private transient TableWrite write;
    /** Views the input rows as storage rows; reused. */
    protected transient RowDataView view;
    private transient ListState<byte[]> state;
    private transient String commitUser;
    /** The last checkpoint to which this writer handed new data files; -1 if none. */
    private transient long lastHandedOut;
    private transient boolean handedOutSinceSnapshot;

    /**
     * @param bucketsAssigned whether rows of a dynamic-bucket table arrive with their bucket, from
     *     {@code BucketAssignerOperator}s, routed by (partition, bucket)
     * @param replacesData whether the commit replaces the partitions written (overwrite): then every
     *     partition starts empty
     */
    protected AbstractWriterOperator(Table table, String commitUser, boolean bucketsAssigned, boolean replacesData) {
        this.table = Objects.requireNonNull(table, "table");
        this.initialCommitUser = Objects.requireNonNull(commitUser, "commitUser");
        this.bucketsAssigned = bucketsAssigned;
        this.replacesData = replacesData;
    }

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        super.initializeState(context);
        state = context.getOperatorStateStore().getListState(
                new ListStateDescriptor<>("streamhouse-writer", BytePrimitiveArraySerializer.INSTANCE));
        WriterState restored = WriterState.restore(context.isRestored() ? state.get() : List.of(), initialCommitUser);
        commitUser = restored.commitUser();
        lastHandedOut = restored.lastHandedOut();
        if (context.isRestored()) {
            if (lastHandedOut >= 0 && continuesBuckets() && !replacesData) {
                CommittedCheckpoint.await(table, commitUser, lastHandedOut);
            }
        }
    }

    /**
     * Whether the writer continues its buckets from the table: primary-key tables (levels, sequence
     * numbers, hash index) and fixed-bucket append tables (sequence numbers, compaction candidates).
     */
    private boolean continuesBuckets() {
        return table.schema().hasPrimaryKey() || table.schema().numBuckets() > 0;
    }

    @Override
    public void open() throws Exception {
        super.open();
        WriteContext context = WriteContext.single();
        if (bucketsAssigned) {
            context = context.withAssignedBuckets();
        }
        if (replacesData) {
            context = context.ignoringPreviousFiles();
        }
        // Spills and local lookup files go where Flink keeps its own temporary files (io.tmp.dirs).
        java.util.List<java.nio.file.Path> tempDirs = new java.util.ArrayList<>();
        for (java.io.File dir : getContainingTask().getEnvironment().getIOManager().getSpillingDirectories()) {
            tempDirs.add(dir.toPath());
        }
        context = context.withTempDirectories(tempDirs);
        write = table.newWrite(context);
        write.reportTo(new WriterMetrics(TableMetricGroup.of(getMetricGroup(), table.fullName())).stats());
        if (!replacesData) {
            int n = getRuntimeContext().getTaskInfo().getNumberOfParallelSubtasks();
            int index = getRuntimeContext().getTaskInfo().getIndexOfThisSubtask();
            write.resumeLevelZero((partition, bucket) ->
                    FixedBucketPartitioner.channel(partition.formatHash(), bucket, n) == index);
        }
        view = new RowDataView();
    }

    /** The storage write of this subtask, open between {@link #open()} and {@link #close()}. */
    protected TableWrite write() {
        return write;
    }

    @Override
    public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
        super.prepareSnapshotPreBarrier(checkpointId);
        // A compaction still running is left to a later checkpoint (the end of the input waits for it).
        handOut(Committable.ofCheckpoint(checkpointId, write.prepareCommit(false)).forTable(table.fullName()));
    }

    @Override
    public void endInput() throws Exception {
        handOut(Committable.ofEndOfInput(write.prepareCommit()).forTable(table.fullName()));
    }

    private void handOut(Committable committable) {
        List<CommitMessage> messages = committable.messages();
        if (messages.isEmpty()) {
            return;
        }
        output.collect(new StreamRecord<>(committable));
        for (CommitMessage m : messages) {
            // Only data increments matter after a restore: the committer drops restored compactions.
            if (!m.dataIncrement().isEmpty()) {
                handedOutSinceSnapshot = true;
            }
        }
    }

    @Override
    public void snapshotState(StateSnapshotContext context) throws Exception {
        super.snapshotState(context);
        if (handedOutSinceSnapshot) {
            // The committer files everything it received before this barrier under this checkpoint.
            lastHandedOut = context.getCheckpointId();
            handedOutSinceSnapshot = false;
        }
        state.update(List.of(new WriterState(commitUser, lastHandedOut).toBytes()));
    }

    @Override
    public void close() throws Exception {
        try {
            if (write != null) {
                write.close();
                write = null;
            }
        } finally {
            super.close();
        }
    }
}
