package dev.streamhouse.storage.mergetree.aggregate;

/**
 * {@code first_non_null_value} (also spelled {@code first_not_null_value}): the first non-null input of
 * a key; once one was taken, later inputs are ignored until {@link #reset()}. Until then the
 * accumulator stays as it is (so an accumulator that already holds a value from elsewhere is replaced
 * by the first non-null input). Any type. Retraction is not supported.
 */
final class FirstNonNullValueAggregator extends NonRetractingAggregator {
    private boolean taken;

    FirstNonNullValueAggregator(ColumnFunction function) {
        super(function);
    }

    @Override
    public Object agg(Object accumulator, Object input) {
        if (taken || input == null) {
            return accumulator;
        }
        taken = true;
        return input;
    }

    @Override
    public void reset() {
        taken = false;
    }
}
