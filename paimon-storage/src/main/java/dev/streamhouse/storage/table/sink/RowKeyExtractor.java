package dev.streamhouse.storage.table.sink;

import dev.streamhouse.storage.bucket.BucketFunction;
import dev.streamhouse.storage.data.BinaryRow;
import dev.streamhouse.storage.data.BinaryRowConverter;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.options.BucketOptions;
import dev.streamhouse.storage.schema.TableSchema;

import java.util.List;

/**
 * Where a row of a table goes, computed in this one place for the storage writers and for engines
 * that route rows to writers (docs/format.md §7):
 *
 * <ul>
 *   <li>{@link #partition}: the partition columns as a binary row (its {@code formatHash()} is the
 *       partition hash routing uses);
 *   <li>{@link #bucket}: for fixed buckets ({@code bucket} = N &gt; 0) the bucket function of option
 *       {@code bucket-function.type} over the {@code bucket-key} columns (default: the trimmed primary
 *       key); 0 for bucket-unaware append tables; dynamic buckets ({@code bucket} = -1 with a primary
 *       key) have no bucket computable from the row, their writer's assigner decides;
 *   <li>{@link #trimmedPrimaryKey}: the primary key without partition columns (docs/format.md §6.3), the key
 *       of the LSM tree; its {@code formatHash()} ({@link #trimmedPrimaryKeyHash}) is the key hash of
 *       dynamic-bucket assignment and of its routing
 *       ({@link dev.streamhouse.storage.bucket.dynamic.AssignerRouting}).
 * </ul>
 * Rows are of the table's row type; the results are fresh rows, never reused. Not thread-safe (it
 * reuses its converters): one extractor per thread. Created for a schema by {@link #of}.
 */
public final class RowKeyExtractor {
    private final String tableDescription;
    private final int numBuckets;
    private final boolean hasPrimaryKey;
    private final BinaryRowConverter partition;
    private final BinaryRowConverter bucketKey;
    private final BucketFunction bucketFunction;
    private final BinaryRowConverter trimmedPrimaryKey;

    private RowKeyExtractor(TableSchema schema) {
        this.tableDescription = "table schema " + schema.id();
        this.numBuckets = schema.numBuckets();
        this.hasPrimaryKey = schema.hasPrimaryKey();
        this.partition = converter(schema, schema.partitionKeys());
        if (numBuckets > 0) {
            List<String> bucketKeys = schema.bucketKeys();
            this.bucketKey = converter(schema, bucketKeys);
            this.bucketFunction = BucketFunction.of(schema.tableOptions().get(BucketOptions.BUCKET_FUNCTION_TYPE),
                    schema.rowType().project(bucketKeys));
        } else {
            this.bucketKey = null;
            this.bucketFunction = null;
        }
        this.trimmedPrimaryKey = hasPrimaryKey ? converter(schema, schema.trimmedPrimaryKeys()) : null;
    }

    /**
     * The extractor of rows of {@code schema}.
     *
     * @throws IllegalArgumentException if option {@code bucket-function.type} is invalid for the bucket key
     */
    public static RowKeyExtractor of(TableSchema schema) {
        return new RowKeyExtractor(schema);
    }

    private static BinaryRowConverter converter(TableSchema schema, List<String> columns) {
        return new BinaryRowConverter(schema.typesOf(columns), schema.positionsOf(columns));
    }

    public BinaryRow partition(InternalRow row) {
        return partition.toBinaryRow(row);
    }

    /** Whether {@link #bucket} is known from the row alone: fixed buckets or a bucket-unaware append table. */
    public boolean bucketKnownFromRow() {
        return numBuckets > 0 || !hasPrimaryKey;
    }

    /**
     * The bucket of the row.
     *
     * @throws IllegalStateException for a dynamic-bucket table ({@code !bucketKnownFromRow()})
     */
    public int bucket(InternalRow row) {
        if (numBuckets > 0) {
            return bucketFunction.bucket(bucketKey.toBinaryRow(row), numBuckets);
        }
        if (!hasPrimaryKey) {
            return 0;
        }
        throw new IllegalStateException("Cannot compute the bucket of a row of " + tableDescription + " from the row: "
                + "with 'bucket' = " + numBuckets + " its writer's bucket assigner decides; route by "
                + "trimmedPrimaryKeyHash instead");
    }

    /**
     * The primary key without partition columns.
     *
     * @throws IllegalStateException if the table has no primary key
     */
    public BinaryRow trimmedPrimaryKey(InternalRow row) {
        if (trimmedPrimaryKey == null) {
            throw new IllegalStateException("Cannot extract the primary key of a row of " + tableDescription
                    + ": it has no primary key");
        }
        return trimmedPrimaryKey.toBinaryRow(row);
    }

    /** {@code trimmedPrimaryKey(row).formatHash()}, the key hash of dynamic-bucket assignment and routing. */
    public int trimmedPrimaryKeyHash(InternalRow row) {
        return trimmedPrimaryKey(row).formatHash();
    }
}
