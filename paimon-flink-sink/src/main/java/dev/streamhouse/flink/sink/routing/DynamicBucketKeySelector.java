package dev.streamhouse.flink.sink.routing;

import dev.streamhouse.flink.common.data.RowDataView;
import dev.streamhouse.storage.schema.TableSchema;
import dev.streamhouse.storage.table.sink.RowKeyExtractor;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.table.data.RowData;

/**
 * Route key of a row of a dynamic-bucket primary-key table ({@code bucket = -1}): the format hashes of
 * its partition and of its trimmed primary key, the inputs of the assigner routing, both from
 * storage's {@link RowKeyExtractor}, the one the storage writer uses. Used with
 * {@link DynamicBucketPartitioner}.
 */
public final class DynamicBucketKeySelector implements KeySelector<RowData, Long> {
    private static final long serialVersionUID = 1L;

    private final TableSchema schema;
    private transient RowKeyExtractor keys;
    private transient RowDataView view;

    public DynamicBucketKeySelector(TableSchema schema) {
        if (!schema.hasPrimaryKey()) {
            throw new IllegalArgumentException("Dynamic buckets need a primary key; table schema " + schema.id()
                    + " has none");
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
        return RouteKey.pack(keys.partition(view).formatHash(), keys.trimmedPrimaryKeyHash(view));
    }
}
