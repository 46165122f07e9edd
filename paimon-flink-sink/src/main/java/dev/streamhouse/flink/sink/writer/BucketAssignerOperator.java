package dev.streamhouse.flink.sink.writer;

import dev.streamhouse.flink.common.data.RowDataView;
import dev.streamhouse.storage.bucket.dynamic.AssignerRouting;
import dev.streamhouse.storage.table.Table;
import dev.streamhouse.storage.table.sink.TableBucketAssigner;
import dev.streamhouse.storage.table.sink.WriteContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeutils.base.array.BytePrimitiveArraySerializer;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.RowData;

import java.util.List;
import java.util.Objects;

/**
 * The dynamic-bucket assigner of a sink writing a primary-key table with {@code bucket} = -1, ahead
 * of its writers, as in Apache Paimon's sink:
 *
 * <pre>
 *   input --(partition, key hash)--> assigners --(partition, bucket)--> AssignedBucketWriterOperator
 * </pre>
 * Subtask {@code i} of {@code n} is the storage assigner {@code AssignerRouting(n, m, i)}, {@code m} =
 * {@link AssignerRouting#numAssigners} of {@code dynamic-bucket.initial-buckets} and {@code n}, and
 * receives the rows {@code DynamicBucketPartitioner} routes to it. It emits each row with its bucket;
 * rows the writers would drop ({@code ignore-delete}) are dropped here. Keys placed by earlier jobs
 * keep their bucket at any parallelism, since the writers are chosen by bucket.
 *
 * <p><b>State.</b> The assignments live in memory only and are rebuilt from the table's hash index
 * (the writers maintain it) when a partition is first seen. The operator state holds the commit
 * user and the last checkpoint before which this subtask placed a new key; a restored subtask waits
 * until the table shows that checkpoint committed by the commit user (the restored committer commits
 * it while initializing), so it never reads an index without keys it placed. As for the writers,
 * the state is split-redistributed: after a change of the assigner parallelism a subtask waits for
 * the newest checkpoint among the entries it got, so rescale from a savepoint taken with
 * stop-with-savepoint, which commits everything first.
 */
public final class BucketAssignerOperator extends AbstractStreamOperator<Tuple2<RowData, Integer>>
        implements OneInputStreamOperator<RowData, Tuple2<RowData, Integer>> {
    private static final long serialVersionUID = 1L;

    private final Table table;
    private final String initialCommitUser;
    private final Integer initialBuckets;
    private final boolean replacesData;

    private transient TableBucketAssigner assigner;
    private transient RowDataView view;
    private transient ListState<byte[]> state;
    private transient String commitUser;
    /** The last checkpoint before which this subtask placed a new key; -1 if none. */
    private transient long lastPlacedNewKey;
    private transient long newKeysAtSnapshot;

    /**
     * @param initialBuckets {@code dynamic-bucket.initial-buckets}, or null if unset
     * @param replacesData whether the commit replaces the partitions written (overwrite): then every
     *     partition starts empty
     */
    public BucketAssignerOperator(Table table, String commitUser, Integer initialBuckets, boolean replacesData) {
        this.table = Objects.requireNonNull(table, "table");
        this.initialCommitUser = Objects.requireNonNull(commitUser, "commitUser");
        this.initialBuckets = initialBuckets;
        this.replacesData = replacesData;
    }

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        super.initializeState(context);
        state = context.getOperatorStateStore().getListState(
                new ListStateDescriptor<>("streamhouse-bucket-assigner", BytePrimitiveArraySerializer.INSTANCE));
        WriterState restored = WriterState.restore(context.isRestored() ? state.get() : List.of(), initialCommitUser);
        commitUser = restored.commitUser();
        lastPlacedNewKey = restored.lastHandedOut();
        if (context.isRestored()) {
            if (lastPlacedNewKey >= 0 && !replacesData) {
                CommittedCheckpoint.await(table, commitUser, lastPlacedNewKey);
            }
        }
    }

    @Override
    public void open() throws Exception {
        super.open();
        int n = getRuntimeContext().getTaskInfo().getNumberOfParallelSubtasks();
        int index = getRuntimeContext().getTaskInfo().getIndexOfThisSubtask();
        WriteContext context = WriteContext.single()
                .withAssigner(new AssignerRouting(n, AssignerRouting.numAssigners(initialBuckets, n), index));
        if (replacesData) {
            context = context.ignoringPreviousFiles();
        }
        assigner = table.newBucketAssigner(context);
        view = new RowDataView();
    }

    @Override
    public void processElement(StreamRecord<RowData> element) throws Exception {
        RowData row = element.getValue();
        int bucket = assigner.assign(view.replace(row));
        if (bucket >= 0) {
            output.collect(element.replace(Tuple2.of(row, bucket)));
        }
    }

    @Override
    public void snapshotState(StateSnapshotContext context) throws Exception {
        super.snapshotState(context);
        if (assigner.newKeys() != newKeysAtSnapshot) {
            // The writers add these keys to the hash index in the files they hand out for this checkpoint.
            lastPlacedNewKey = context.getCheckpointId();
            newKeysAtSnapshot = assigner.newKeys();
        }
        state.update(List.of(new WriterState(commitUser, lastPlacedNewKey).toBytes()));
    }
}
