package dev.streamhouse.flink.sink.multitable;

import dev.streamhouse.storage.bucket.dynamic.AssignerRouting;
import dev.streamhouse.storage.catalog.Catalog;
import dev.streamhouse.storage.catalog.CatalogFactory;
import dev.streamhouse.storage.catalog.Identifier;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.serialization.RowBytes;
import dev.streamhouse.storage.table.Table;
import dev.streamhouse.storage.table.sink.TableBucketAssigner;
import dev.streamhouse.storage.table.sink.WriteContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.typeutils.base.array.BytePrimitiveArraySerializer;
import org.apache.flink.core.io.SimpleVersionedSerialization;
import org.apache.flink.runtime.state.StateInitializationContext;
import org.apache.flink.runtime.state.StateSnapshotContext;
import org.apache.flink.streaming.api.operators.AbstractStreamOperator;
import org.apache.flink.streaming.api.operators.OneInputStreamOperator;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Assigns the dynamic buckets of the tables a multi-table sink writes, ahead of the writers, as the
 * single-table sink's {@code BucketAssignerOperator} does: each {@link TableRow} of a dynamic-bucket
 * table leaves with its bucket ({@code dynamicBucket()} false, {@code bucketOrKeyHash()} the bucket),
 * so {@link TableRowPartitioner} sends each (table, partition, bucket) to one writer whatever the
 * writer parallelism, and that writer maintains the bucket's hash index file. Rows the writers
 * would drop ({@code ignore-delete}) are dropped.
 *
 * <p>Runs at parallelism 1, one assigner per table ({@code AssignerRouting.single()}): the writers
 * must receive each table's rows in the order they were made (schema changes), which one upstream
 * channel keeps. Rows of every schema of a table share the table's assignments.
 *
 * <p>State: per table, the last checkpoint before which a new key was placed; a restored assigner
 * waits until the job's commit user committed it, then rebuilds its assignments from the hash index.
 */
public final class MultiTableBucketAssignerOperator extends AbstractStreamOperator<TableRow>
        implements OneInputStreamOperator<TableRow, TableRow> {
    private static final long serialVersionUID = 1L;

    private final Map<String, String> catalogOptions;
    private final String initialCommitUser;

    private transient Catalog catalog;
    private transient ListState<byte[]> state;
    private transient String commitUser;
    private transient Map<String, Long> lastPlacedNewKey;
    private transient Map<String, Long> newKeysAtSnapshot;
    /** Per table: its assigner of the first schema seen, and per schema id the decoder and assigner. */
    private transient Map<String, TableAssigners> tables;

    private static final class TableAssigners {
        final TableBucketAssigner first;
        final Map<Long, RowBytes> rows = new HashMap<>();
        final Map<Long, TableBucketAssigner> bySchema = new HashMap<>();

        TableAssigners(TableBucketAssigner first) {
            this.first = first;
        }
    }

    public MultiTableBucketAssignerOperator(Map<String, String> catalogOptions, String commitUser) {
        this.catalogOptions = Map.copyOf(catalogOptions);
        this.initialCommitUser = Objects.requireNonNull(commitUser, "commitUser");
    }

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        super.initializeState(context);
        catalog = CatalogFactory.createCatalog(new Options(catalogOptions));
        state = context.getOperatorStateStore().getListState(
                new ListStateDescriptor<>("streamhouse-multi-table-bucket-assigner", BytePrimitiveArraySerializer.INSTANCE));
        MultiTableWriterState restored = MultiTableWriterState.restore(
                context.isRestored() ? state.get() : List.of(), initialCommitUser);
        commitUser = restored.commitUser();
        lastPlacedNewKey = new HashMap<>(restored.lastHandedOut());
        newKeysAtSnapshot = new HashMap<>();
        tables = new HashMap<>();
        restored.awaitCommitted(catalog);
    }

    @Override
    public void processElement(StreamRecord<TableRow> element) throws Exception {
        TableRow row = element.getValue();
        if (!row.dynamicBucket()) {
            output.collect(element);
            return;
        }
        TableAssigners t = tables.get(row.table());
        if (t == null) {
            Table table = catalog.getTable(Identifier.fromString(row.table())).atSchema(row.schemaId());
            t = new TableAssigners(table.newBucketAssigner(WriteContext.single().withAssigner(AssignerRouting.single())));
            tables.put(row.table(), t);
        }
        TableBucketAssigner assigner = t.bySchema.get(row.schemaId());
        if (assigner == null) {
            Table table = catalog.getTable(Identifier.fromString(row.table())).atSchema(row.schemaId());
            assigner = t.first.forSchema(table.schema());
            t.bySchema.put(row.schemaId(), assigner);
            t.rows.put(row.schemaId(), new RowBytes(table.rowType()));
        }
        int bucket = assigner.assign(t.rows.get(row.schemaId()).fromBytes(row.row()));
        if (bucket >= 0) {
            output.collect(element.replace(new TableRow(row.table(), row.schemaId(), row.row(), row.partitionHash(),
                    bucket, false)));
        }
    }

    @Override
    public void snapshotState(StateSnapshotContext context) throws Exception {
        super.snapshotState(context);
        for (Map.Entry<String, TableAssigners> e : tables.entrySet()) {
            long newKeys = e.getValue().first.newKeys();
            if (newKeys != newKeysAtSnapshot.getOrDefault(e.getKey(), 0L)) {
                // The writers add these keys to the hash index in the files they hand out for this checkpoint.
                lastPlacedNewKey.put(e.getKey(), context.getCheckpointId());
                newKeysAtSnapshot.put(e.getKey(), newKeys);
            }
        }
        state.update(List.of(SimpleVersionedSerialization.writeVersionAndSerialize(
                MultiTableWriterState.Serializer.INSTANCE, new MultiTableWriterState(commitUser, lastPlacedNewKey))));
    }

    @Override
    public void close() throws Exception {
        try {
            if (catalog != null) {
                catalog.close();
            }
        } finally {
            super.close();
        }
    }
}
