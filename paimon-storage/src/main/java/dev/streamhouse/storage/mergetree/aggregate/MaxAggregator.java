package dev.streamhouse.storage.mergetree.aggregate;

/**
 * {@code max}: the largest non-null value in {@link ValueOrder}; on a tie the accumulator stays. Null
 * never contributes. Retraction is not supported.
 */
final class MaxAggregator extends NonRetractingAggregator {
    private final ValueOrder order;

    MaxAggregator(ColumnFunction function) {
        super(function);
        this.order = new ValueOrder(function);
    }

    @Override
    public Object agg(Object accumulator, Object input) {
        if (accumulator == null || input == null) {
            return accumulator == null ? input : accumulator;
        }
        return order.compare(accumulator, input) >= 0 ? accumulator : input;
    }
}
