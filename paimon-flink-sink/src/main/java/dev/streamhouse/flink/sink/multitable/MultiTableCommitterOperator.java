package dev.streamhouse.flink.sink.multitable;

import dev.streamhouse.flink.sink.compat.CheckpointingProbe;
import dev.streamhouse.flink.sink.CommitAction;
import dev.streamhouse.flink.sink.committable.Committable;
import dev.streamhouse.flink.sink.committer.ExactlyOnceCommitter;
import dev.streamhouse.storage.catalog.Catalog;
import dev.streamhouse.storage.catalog.CatalogFactory;
import dev.streamhouse.storage.catalog.Identifier;
import dev.streamhouse.storage.commit.CommitMessage;
import dev.streamhouse.storage.options.Options;
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

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.Set;

/**
 * The single committer (parallelism 1) of a sink writing many tables: each checkpoint's files of each
 * table become that table's snapshot(s), exactly once, with the checkpoint id as identifier and one
 * commit user for all tables. The exactly-once logic is {@link ExactlyOnceCommitter}'s, the same as the
 * single-table {@code CommitterOperator}'s: pending checkpoints are committed in ascending order, table
 * after table (a failure fails the job, whose restore then commits exactly what is missing); a table
 * this committer has written that asks for an empty snapshot (automatic tags) gets one; a restored
 * pending table that no longer exists is skipped with a warning. This operator finds tables in the
 * catalog and checkpoints the committer as {@link MultiTableCommitterState}. Committables must name their
 * table.
 */
public final class MultiTableCommitterOperator extends AbstractStreamOperator<Void>
        implements OneInputStreamOperator<Committable, Void>, BoundedOneInput {
    private static final long serialVersionUID = 1L;

    private final Map<String, String> catalogOptions;
    private final String initialCommitUser;

    private transient Catalog catalog;
    private transient ListState<byte[]> state;
    private transient ExactlyOnceCommitter committer;

    public MultiTableCommitterOperator(Map<String, String> catalogOptions, String commitUser) {
        this.catalogOptions = Map.copyOf(catalogOptions);
        this.initialCommitUser = Objects.requireNonNull(commitUser, "commitUser");
    }

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        super.initializeState(context);
        catalog = CatalogFactory.createCatalog(new Options(catalogOptions));
        state = context.getOperatorStateStore().getListState(
                new ListStateDescriptor<>("streamhouse-multi-table-committer", BytePrimitiveArraySerializer.INSTANCE));
        String commitUser = initialCommitUser;
        List<MultiTableCommitterState> restored = new ArrayList<>();
        if (context.isRestored()) {
            for (byte[] bytes : state.get()) {
                MultiTableCommitterState s = SimpleVersionedSerialization.readVersionAndDeSerialize(
                        MultiTableCommitterState.Serializer.INSTANCE, bytes);
                commitUser = s.commitUser();
                restored.add(s);
            }
        }
        committer = new ExactlyOnceCommitter(commitUser, context.getRestoredCheckpointId().orElse(-1L),
                CommitAction.append(), new CatalogTables(catalog), Set.of(), getMetricGroup());
        for (MultiTableCommitterState s : restored) {
            committer.restore(s.pending());
        }
    }

    @Override
    public void processElement(StreamRecord<Committable> element) {
        Committable c = element.getValue();
        String table = c.table().orElseThrow(() -> new IllegalStateException("Cannot commit " + c
                + ": a multi-table sink's committables must name their table"));
        committer.receive(table, c);
    }

    @Override
    public void processWatermark(org.apache.flink.streaming.api.watermark.Watermark mark) throws Exception {
        super.processWatermark(mark);
        committer.watermark(mark.getTimestamp());
    }

    @Override
    public void snapshotState(StateSnapshotContext context) throws Exception {
        super.snapshotState(context);
        NavigableMap<Long, Map<String, List<CommitMessage>>> pending =
                committer.snapshot(context.getCheckpointId(), context.getCheckpointTimestamp());
        state.update(List.of(SimpleVersionedSerialization.writeVersionAndSerialize(
                MultiTableCommitterState.Serializer.INSTANCE,
                new MultiTableCommitterState(committer.commitUser(), pending))));
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) throws Exception {
        super.notifyCheckpointComplete(checkpointId);
        committer.checkpointComplete(checkpointId);
    }

    @Override
    public void endInput() {
        if (!CheckpointingProbe.isEnabled(this)) {
            committer.endInputWithoutCheckpoints();
        }
    }

    @Override
    public void close() throws Exception {
        try (Catalog ignored = catalog) {
            if (committer != null) {
                committer.close();
            }
        } finally {
            super.close();
        }
    }

    /** Tables of the sink's catalog. */
    private record CatalogTables(Catalog catalog) implements ExactlyOnceCommitter.Tables {
        @Override
        public Table get(String fullName) {
            return catalog.getTable(Identifier.fromString(fullName));
        }

        @Override
        public boolean exists(String fullName) {
            return catalog.tableExists(Identifier.fromString(fullName));
        }
    }
}
