package dev.streamhouse.flink.sink.committer;

import dev.streamhouse.flink.sink.compat.CheckpointingProbe;
import dev.streamhouse.flink.sink.CommitAction;
import dev.streamhouse.flink.sink.committable.Committable;
import dev.streamhouse.storage.commit.CommitMessage;
import dev.streamhouse.storage.table.Table;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeutils.base.array.BytePrimitiveArraySerializer;
import org.apache.flink.core.io.SimpleVersionedSerialization;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.BoundedOneInput;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * The sink's single committer (parallelism 1) of one table: turns the writers' {@link Committable}s
 * into snapshots, each checkpoint's files exactly once. The exactly-once logic (filing by checkpoint,
 * committing on completion, restore, end of input, cleanup) is {@link ExactlyOnceCommitter}'s, shared
 * with the multi-table committer; this operator checkpoints it as {@link CommitterState}.
 *
 * <p>A writer's end-of-input files go to the first checkpoint after the writer ended, i.e. its final
 * checkpoint: nothing is ever committed under {@code Long.MAX_VALUE} in a streaming job, so a writer
 * that finished early cannot make later checkpoints look committed (checkpoints after tasks finish must
 * be enabled; the sink builder checks). A restore commits what is missing while initializing; writers
 * of primary-key tables wait for this (see {@code WriterOperator}), so a writer never loads a bucket
 * that a restored commit changes afterwards.
 *
 * <p><b>Tables.</b> A committable that names a table ({@link Committable#table()}) must name this
 * committer's table ({@code fullName()}); any other fails the job before its files reach a commit.
 * Committables naming no table are taken as this table's.
 */
public final class CommitterOperator extends AbstractStreamOperator<Void>
        implements OneInputStreamOperator<Committable, Void>, BoundedOneInput {
    private static final long serialVersionUID = 1L;

    private final Table table;
    private final String initialCommitUser;
    private final CommitAction action;

    private transient ListState<byte[]> state;
    private transient ExactlyOnceCommitter committer;

    public CommitterOperator(Table table, String commitUser, CommitAction action) {
        this.table = Objects.requireNonNull(table, "table");
        this.initialCommitUser = Objects.requireNonNull(commitUser, "commitUser");
        this.action = Objects.requireNonNull(action, "action");
    }

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        super.initializeState(context);
        state = context.getOperatorStateStore().getListState(
                new ListStateDescriptor<>("streamhouse-committer", BytePrimitiveArraySerializer.INSTANCE));
        String commitUser = initialCommitUser;
        NavigableMap<Long, Map<String, List<CommitMessage>>> pending = new TreeMap<>();
        if (context.isRestored()) {
            for (byte[] bytes : state.get()) {
                CommitterState restored = SimpleVersionedSerialization.readVersionAndDeSerialize(
                        CommitterStateSerializer.INSTANCE, bytes);
                commitUser = restored.commitUser();
                restored.pending().forEach((id, messages) -> pending.put(id, Map.of(table.fullName(), messages)));
            }
        }
        committer = new ExactlyOnceCommitter(commitUser, context.getRestoredCheckpointId().orElse(-1L), action,
                new OneTable(table), Set.of(table.fullName()), getMetricGroup());
        if (!pending.isEmpty()) {
            committer.restore(pending);
        }
    }

    @Override
    public void processElement(StreamRecord<Committable> element) {
        Committable c = element.getValue();
        if (c.table().isPresent() && !c.table().get().equals(table.fullName())) {
            throw new IllegalStateException("Cannot commit to table " + table.fullName() + ": received " + c
                    + ", files of another table; each table's writers must send their committables to the"
                    + " committer of that table, check how the job connects its sinks");
        }
        committer.receive(table.fullName(), c);
    }

    @Override
    public void processWatermark(org.apache.flink.streaming.api.watermark.Watermark mark) throws Exception {
        super.processWatermark(mark);
        committer.watermark(mark.getTimestamp());
    }

    @Override
    public void snapshotState(StateSnapshotContext context) throws Exception {
        super.snapshotState(context);
        NavigableMap<Long, List<CommitMessage>> pending = new TreeMap<>();
        committer.snapshot(context.getCheckpointId(), context.getCheckpointTimestamp()).forEach(
                (id, byTable) -> pending.put(id, byTable.getOrDefault(table.fullName(), List.of())));
        state.update(List.of(SimpleVersionedSerialization.writeVersionAndSerialize(
                CommitterStateSerializer.INSTANCE, new CommitterState(committer.commitUser(), pending))));
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) throws Exception {
        super.notifyCheckpointComplete(checkpointId);
        committer.checkpointComplete(checkpointId);
    }

    @Override
    public void endInput() {
        if (!CheckpointingProbe.isEnabled(this)) {
            // With checkpoints, the final checkpoint, taken after every writer ended, files and commits the rest.
            committer.endInputWithoutCheckpoints();
        }
    }

    @Override
    public void close() throws Exception {
        try {
            if (committer != null) {
                committer.close();
            }
        } finally {
            super.close();
        }
    }

    /** The committer's only table. */
    private record OneTable(Table table) implements ExactlyOnceCommitter.Tables {
        @Override
        public Table get(String fullName) {
            return table;
        }

        @Override
        public boolean exists(String fullName) {
            return true;
        }
    }
}
