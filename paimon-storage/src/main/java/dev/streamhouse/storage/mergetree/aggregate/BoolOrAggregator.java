package dev.streamhouse.storage.mergetree.aggregate;

import dev.streamhouse.storage.types.DataTypeRoot;

/** {@code bool_or} of a BOOLEAN column: true once any non-null input is true. Null never contributes. */
final class BoolOrAggregator extends NonRetractingAggregator {
    private BoolOrAggregator(ColumnFunction function) {
        super(function);
    }

    static FieldAggregator create(ColumnFunction function) {
        if (function.type().root() != DataTypeRoot.BOOLEAN) {
            throw function.typeRefused("BOOLEAN");
        }
        return new BoolOrAggregator(function);
    }

    @Override
    public Object agg(Object accumulator, Object input) {
        if (accumulator == null || input == null) {
            return accumulator == null ? input : accumulator;
        }
        return (Boolean) accumulator || (Boolean) input;
    }
}
