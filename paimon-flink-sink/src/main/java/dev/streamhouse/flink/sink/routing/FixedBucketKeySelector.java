package dev.streamhouse.flink.sink.routing;

import dev.streamhouse.flink.sink.data.RowDataView;
import dev.streamhouse.storage.bucket.BucketFunction;
import dev.streamhouse.storage.data.BinaryRowConverter;
import dev.streamhouse.storage.options.BucketOptions;
import dev.streamhouse.storage.schema.TableSchema;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.table.data.RowData;

import java.util.List;

/**
 * Route key of a row of a fixed-bucket table ({@code bucket = N > 0}): its partition's format hash
 * and its bucket, computed exactly as the storage writer does (bucket function of option
 * {@code bucket-function.type} over the {@code bucket-key} columns). Used with
 * {@link FixedBucketPartitioner}.
 */
public final class FixedBucketKeySelector implements KeySelector<RowData, Long> {
    private static final long serialVersionUID = 1L;

    private final TableSchema schema;
    private transient BinaryRowConverter partition;
    private transient BinaryRowConverter bucketKey;
    private transient BucketFunction bucketFunction;
    private transient RowDataView view;
    private transient int numBuckets;

    public FixedBucketKeySelector(TableSchema schema) {
        if (schema.numBuckets() <= 0) {
            throw new IllegalArgumentException("Table schema " + schema.id() + " has no fixed bucket count: "
                    + schema.numBuckets());
        }
        this.schema = schema;
    }

    @Override
    public Long getKey(RowData row) {
        if (view == null) {
            partition = new BinaryRowConverter(schema.typesOf(schema.partitionKeys()),
                    schema.positionsOf(schema.partitionKeys()));
            List<String> bucketKeys = schema.bucketKeys();
            bucketKey = new BinaryRowConverter(schema.typesOf(bucketKeys), schema.positionsOf(bucketKeys));
            bucketFunction = BucketFunction.of(schema.tableOptions().get(BucketOptions.BUCKET_FUNCTION_TYPE),
                    schema.rowType().project(bucketKeys));
            numBuckets = schema.numBuckets();
            view = new RowDataView();
        }
        view.replace(row);
        int partitionHash = partition.toBinaryRow(view).formatHash();
        int bucket = bucketFunction.bucket(bucketKey.toBinaryRow(view), numBuckets);
        return RouteKey.pack(partitionHash, bucket);
    }

    /** The bucket in a route key. */
    public static int bucket(long routeKey) {
        return RouteKey.low(routeKey);
    }
}
