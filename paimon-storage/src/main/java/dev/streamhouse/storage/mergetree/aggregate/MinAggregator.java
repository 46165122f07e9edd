package dev.streamhouse.storage.mergetree.aggregate;

/**
 * {@code min}: the smallest non-null value in {@link ValueOrder}; on a tie the input wins (which only
 * matters for identity: tied values are equal). Null never contributes. Retraction is not supported.
 */
final class MinAggregator extends NonRetractingAggregator {
    private final ValueOrder order;

    MinAggregator(ColumnFunction function) {
        super(function);
        this.order = new ValueOrder(function);
    }

    @Override
    public Object agg(Object accumulator, Object input) {
        if (accumulator == null || input == null) {
            return accumulator == null ? input : accumulator;
        }
        return order.compare(accumulator, input) < 0 ? accumulator : input;
    }
}
