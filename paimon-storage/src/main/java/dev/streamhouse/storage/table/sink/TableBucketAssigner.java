package dev.streamhouse.storage.table.sink;

import dev.streamhouse.storage.bucket.dynamic.AssignerRouting;
import dev.streamhouse.storage.bucket.dynamic.DynamicBucketAssigner;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.options.MergeTreeOptions;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.schema.TableSchema;

import java.io.IOException;
import java.util.Objects;

/**
 * Assigns the dynamic buckets of a primary-key table ({@code bucket = -1}) in an operator of its own,
 * ahead of the writers, as Apache Paimon's Flink sink does: rows reach it routed by (partition, key
 * hash) as its {@link AssignerRouting} {@linkplain AssignerRouting#receives receives} them; each row
 * then goes, with its bucket, to the one writer of that (partition, bucket), which writes it with
 * {@link TableWrite#write(InternalRow, int)} and maintains the bucket's hash index file. So a key
 * placed by an earlier job with another layout keeps its bucket whatever the parallelism now.
 *
 * <p>The assigner keeps its state in memory only and rebuilds it from the latest snapshot's hash
 * index (partition by partition, at first use); a restarted job must let the restored commits land
 * first. Rows the writers drop on arrival ({@code ignore-delete}, {@code ignore-update-before}) get no
 * bucket ({@link #assign} returns -1) and do not enter the index. Not thread-safe.
 */
public final class TableBucketAssigner {
    private final DynamicBucketAssigner assigner;
    private final TableSchema schema;
    private final RowKeyExtractor keys;
    private final boolean ignoreDelete;
    private final boolean ignoreUpdateBefore;

    private TableBucketAssigner(TableSchema schema, DynamicBucketAssigner assigner) {
        this.assigner = Objects.requireNonNull(assigner, "assigner");
        this.schema = schema;
        this.keys = RowKeyExtractor.of(schema);
        Options options = schema.tableOptions();
        this.ignoreDelete = options.get(MergeTreeOptions.IGNORE_DELETE);
        this.ignoreUpdateBefore = options.get(MergeTreeOptions.IGNORE_UPDATE_BEFORE);
    }

    /** An assigner of {@code schema}'s rows through {@code assigner}, which is switched to assigning only. */
    public static TableBucketAssigner of(TableSchema schema, DynamicBucketAssigner assigner) {
        return new TableBucketAssigner(schema, assigner.assignOnly());
    }

    /**
     * An assigner of rows of another schema of the same table (after a schema change) that shares this
     * one's assignments.
     *
     * @throws IllegalArgumentException if the schema changed partition or primary keys
     */
    public TableBucketAssigner forSchema(TableSchema schema) {
        if (!schema.primaryKeys().equals(this.schema.primaryKeys())
                || !schema.partitionKeys().equals(this.schema.partitionKeys())) {
            throw new IllegalArgumentException("Cannot assign buckets of schema " + schema.id() + " with the"
                    + " assignments of schema " + this.schema.id() + ": primary or partition keys changed");
        }
        return new TableBucketAssigner(schema, assigner);
    }

    /**
     * The bucket of {@code row} (of the table's row type), or -1 if the writer would drop the row.
     *
     * @throws IllegalArgumentException if the row is routed to another assigner
     */
    public int assign(InternalRow row) throws IOException {
        if (ignoreDelete && row.rowKind().isRetract()
                || ignoreUpdateBefore && row.rowKind() == RowKind.UPDATE_BEFORE) {
            return -1;
        }
        return assigner.assign(keys.partition(row), keys.trimmedPrimaryKeyHash(row));
    }

    /** Keys placed for the first time so far (their writers add them to the hash index). */
    public long newKeys() {
        return assigner.newKeys();
    }

    public AssignerRouting routing() {
        return assigner.routing();
    }
}
