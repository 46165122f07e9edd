package dev.streamhouse.storage.mergetree.aggregate;

import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.types.DataType;

/** TEMPORARY STUB until the aggregate functions land. */
public final class FieldAggregators {
    private FieldAggregators() {}

    public static FieldAggregator create(String fieldName, DataType type, String function, Options options) {
        throw new UnsupportedOperationException("stub");
    }
}
