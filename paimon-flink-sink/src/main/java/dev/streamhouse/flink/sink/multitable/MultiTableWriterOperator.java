package dev.streamhouse.flink.sink.multitable;

import dev.streamhouse.flink.common.metrics.TableMetricGroup;
import dev.streamhouse.flink.common.metrics.WriterMetrics;
import dev.streamhouse.storage.metrics.WriterStats;

import dev.streamhouse.flink.sink.committable.Committable;
import dev.streamhouse.storage.catalog.Catalog;
import dev.streamhouse.storage.catalog.CatalogFactory;
import dev.streamhouse.storage.catalog.Identifier;
import dev.streamhouse.storage.commit.CommitMessage;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.serialization.RowBytes;
import dev.streamhouse.storage.table.Table;
import dev.streamhouse.storage.table.sink.TableCommit;
import dev.streamhouse.storage.table.sink.TableWrite;
import dev.streamhouse.storage.table.sink.WriteContext;
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

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A writer subtask of a sink that writes many tables of one catalog (e.g. a database sync): it
 * keeps one storage {@link TableWrite} per table it receives rows of, opened on the first row, and
 * hands each table's files to the committer as a {@link Committable} naming the table, just before each
 * checkpoint barrier and at the end of its input. Tables are primary-key tables with fixed or dynamic
 * buckets, rows routed by {@link TableRowPartitioner} (the routing contract of the single-table
 * writers, per table); rows of dynamic-bucket tables come with the bucket the
 * {@link MultiTableBucketAssignerOperator} gave them, and the writer maintains those buckets' hash
 * index files.
 *
 * <p><b>Schema changes while running.</b> A row names the table schema it was made in. Rows of a table
 * arrive in the order they were made, so a newer schema id means the table changed: the writer then
 * opens a write of the table at that schema that continues the current one
 * ({@link WriteContext#succeeding}): the same buckets, files (also those handed out but not committed
 * yet), sequence numbers and bucket assignments, without a pause and without waiting for a commit. A
 * row of an older schema than the table's write is refused (it would mean rows out of order).
 *
 * <p><b>Restore.</b> As the single-table writer does, per table: a restored subtask waits, for each
 * table it handed new data files to, until the job's commit user has committed the last such
 * checkpoint, before it continues that table's buckets (see {@code WriterOperator}).
 */
public final class MultiTableWriterOperator extends AbstractStreamOperator<Committable>
        implements OneInputStreamOperator<TableRow, Committable>, BoundedOneInput {
    private static final long serialVersionUID = 1L;


    private final Map<String, String> catalogOptions;
    private final String initialCommitUser;

    private transient Catalog catalog;
    private transient Map<String, OpenTable> tables;
    private transient ListState<byte[]> state;
    private transient String commitUser;
    private transient Map<String, Long> lastHandedOut;
    private transient WriteContext context;

    /** A table being written: its write and the schema (and row decoder) it writes. */
    /** Per table, once registered: metric groups cannot be registered twice. */
    private final Map<String, WriterMetrics> metrics = new java.util.HashMap<>();

    private static final class OpenTable {
        final Table table;
        final TableWrite write;
        final RowBytes rows;
        /** Whether rows come with their dynamic bucket (primary key, {@code bucket} = -1). */
        final boolean assignedBuckets;

        OpenTable(Table table, TableWrite write) {
            this.table = table;
            this.write = write;
            this.rows = new RowBytes(table.rowType());
            this.assignedBuckets = table.schema().hasPrimaryKey() && table.schema().numBuckets() == -1;
        }

        long schemaId() {
            return table.schema().id();
        }
    }

    /**
     * @param catalogOptions the options of the storage catalog holding the tables (its warehouse)
     * @param commitUser the job's commit user, shared with the committer
     */
    public MultiTableWriterOperator(Map<String, String> catalogOptions, String commitUser) {
        this.catalogOptions = Map.copyOf(catalogOptions);
        this.initialCommitUser = Objects.requireNonNull(commitUser, "commitUser");
    }

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        super.initializeState(context);
        catalog = CatalogFactory.createCatalog(new Options(catalogOptions));
        state = context.getOperatorStateStore().getListState(
                new ListStateDescriptor<>("streamhouse-multi-table-writer", BytePrimitiveArraySerializer.INSTANCE));
        MultiTableWriterState restored = MultiTableWriterState.restore(
                context.isRestored() ? state.get() : List.of(), initialCommitUser);
        commitUser = restored.commitUser();
        lastHandedOut = new HashMap<>(restored.lastHandedOut());
        restored.awaitCommitted(catalog);
    }

    @Override
    public void open() throws Exception {
        super.open();
        tables = new LinkedHashMap<>();
        List<java.nio.file.Path> tempDirs = new ArrayList<>();
        for (java.io.File dir : getContainingTask().getEnvironment().getIOManager().getSpillingDirectories()) {
            tempDirs.add(dir.toPath());
        }
        context = WriteContext.single().withAssignedBuckets().withTempDirectories(tempDirs);
    }

    @Override
    public void processElement(StreamRecord<TableRow> element) throws Exception {
        TableRow row = element.getValue();
        OpenTable open = tables.get(row.table());
        if (open == null || open.schemaId() < row.schemaId()) {
            open = open(row.table(), row.schemaId(), open);
        } else if (open.schemaId() > row.schemaId()) {
            throw new IllegalStateException("Cannot write a row of table " + row.table() + " made in its schema "
                    + row.schemaId() + " after rows of its schema " + open.schemaId() + ": rows of a table must "
                    + "reach its writer in the order they were made");
        }
        if (row.dynamicBucket()) {
            throw new IllegalStateException("Cannot write a row of dynamic-bucket table " + row.table() + " without"
                    + " its bucket: rows of such tables must pass the multi-table bucket assigner");
        }
        if (open.assignedBuckets) {
            open.write.write(open.rows.fromBytes(row.row()), row.bucketOrKeyHash());
        } else {
            open.write.write(open.rows.fromBytes(row.row()));
        }
    }

    private OpenTable open(String name, long schemaId, OpenTable previous) throws Exception {
        Table table = catalog.getTable(Identifier.fromString(name)).atSchema(schemaId);
        OpenTable open;
        if (previous == null) {
            open = new OpenTable(table, table.newWrite(context));
            open.write.reportTo(writerStats(name));
            int n = getRuntimeContext().getTaskInfo().getNumberOfParallelSubtasks();
            int index = getRuntimeContext().getTaskInfo().getIndexOfThisSubtask();
            open.write.resumeLevelZero((partition, bucket) ->
                    TableRowPartitioner.ownsFixedBucket(name, partition, bucket, n, index));
        } else {
            LOG.info("Table {} changed from schema {} to {}; its write continues under the new schema", name,
                    previous.schemaId(), schemaId);
            open = new OpenTable(table, table.newWrite(context.succeeding(previous.write)));
            open.write.reportTo(writerStats(name));
        }
        tables.put(name, open);
        return open;
    }

    /** The writer metrics of table {@code name} in this task, registered at its first write. */
    private WriterStats writerStats(String name) {
        return metrics.computeIfAbsent(name, n -> new WriterMetrics(TableMetricGroup.of(getMetricGroup(), n))).stats();
    }

    @Override
    public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
        super.prepareSnapshotPreBarrier(checkpointId);
        for (OpenTable open : tables.values()) {
            handOut(open, Committable.ofCheckpoint(checkpointId, open.write.prepareCommit(false)), checkpointId);
        }
    }

    @Override
    public void endInput() throws Exception {
        for (OpenTable open : tables.values()) {
            handOut(open, Committable.ofEndOfInput(open.write.prepareCommit()), -1);
        }
    }

    private void handOut(OpenTable open, Committable committable, long checkpointId) {
        List<CommitMessage> messages = committable.messages();
        if (messages.isEmpty()) {
            return;
        }
        String name = open.table.fullName();
        output.collect(new StreamRecord<>(committable.forTable(name)));
        if (checkpointId >= 0) {
            for (CommitMessage m : messages) {
                if (!m.dataIncrement().isEmpty()) {
                    lastHandedOut.put(name, checkpointId);
                    break;
                }
            }
        }
    }

    @Override
    public void snapshotState(StateSnapshotContext context) throws Exception {
        super.snapshotState(context);
        state.update(List.of(SimpleVersionedSerialization.writeVersionAndSerialize(
                MultiTableWriterState.Serializer.INSTANCE, new MultiTableWriterState(commitUser, lastHandedOut))));
    }

    @Override
    public void close() throws Exception {
        try {
            if (tables != null) {
                for (Map.Entry<String, OpenTable> e : tables.entrySet()) {
                    try {
                        e.getValue().write.close();
                    } catch (RuntimeException ex) {
                        LOG.warn("Closing the write of table {} failed", e.getKey(), ex);
                    }
                }
                tables.clear();
            }
            if (catalog != null) {
                catalog.close();
            }
        } finally {
            super.close();
        }
    }
}
