package dev.streamhouse.storage.mergetree.aggregate;

import dev.streamhouse.storage.types.DataTypeRoot;

/** {@code bool_and} of a BOOLEAN column: true while every non-null input is true. Null never contributes. */
final class BoolAndAggregator extends NonRetractingAggregator {
    private BoolAndAggregator(ColumnFunction function) {
        super(function);
    }

    static FieldAggregator create(ColumnFunction function) {
        if (function.type().root() != DataTypeRoot.BOOLEAN) {
            throw function.typeRefused("BOOLEAN");
        }
        return new BoolAndAggregator(function);
    }

    @Override
    public Object agg(Object accumulator, Object input) {
        if (accumulator == null || input == null) {
            return accumulator == null ? input : accumulator;
        }
        return (Boolean) accumulator && (Boolean) input;
    }
}
