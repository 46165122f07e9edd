package dev.streamhouse.flink.sink.routing;

import dev.streamhouse.flink.common.data.RowDataView;
import dev.streamhouse.storage.schema.TableSchema;
import dev.streamhouse.storage.table.sink.RowKeyExtractor;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.table.data.RowData;

/**
 * Route key of a row of a dynamic-bucket table with the bucket its assigner gave it: the format hash
 * of its partition and the bucket, so that {@link FixedBucketPartitioner} sends each (partition,
 * bucket) to one writer, as for fixed buckets.
 */
public final class AssignedBucketKeySelector implements KeySelector<Tuple2<RowData, Integer>, Long> {
    private static final long serialVersionUID = 1L;

    private final TableSchema schema;
    private transient RowKeyExtractor keys;
    private transient RowDataView view;

    public AssignedBucketKeySelector(TableSchema schema) {
        this.schema = schema;
    }

    @Override
    public Long getKey(Tuple2<RowData, Integer> assigned) {
        if (view == null) {
            keys = RowKeyExtractor.of(schema);
            view = new RowDataView();
        }
        view.replace(assigned.f0);
        return RouteKey.pack(keys.partition(view).formatHash(), assigned.f1);
    }
}
