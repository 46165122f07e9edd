package dev.streamhouse.flink.sink.routing;

import dev.streamhouse.flink.common.data.RowDataView;
import dev.streamhouse.storage.schema.TableSchema;
import dev.streamhouse.storage.table.sink.RowKeyExtractor;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.table.data.RowData;

/**
 * Route key of a row of a fixed-bucket table ({@code bucket = N > 0}): its partition's format hash
 * and its bucket, both from storage's {@link RowKeyExtractor}, the one the storage writer uses. Used
 * with {@link FixedBucketPartitioner}.
 */
public final class FixedBucketKeySelector implements KeySelector<RowData, Long> {
    private static final long serialVersionUID = 1L;

    private final TableSchema schema;
    private transient RowKeyExtractor keys;
    private transient RowDataView view;

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
            keys = RowKeyExtractor.of(schema);
            view = new RowDataView();
        }
        view.replace(row);
        return RouteKey.pack(keys.partition(view).formatHash(), keys.bucket(view));
    }

    /** The bucket in a route key. */
    public static int bucket(long routeKey) {
        return RouteKey.low(routeKey);
    }
}
