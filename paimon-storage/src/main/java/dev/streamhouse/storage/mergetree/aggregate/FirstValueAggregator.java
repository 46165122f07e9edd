package dev.streamhouse.storage.mergetree.aggregate;

/**
 * {@code first_value}: the first input of a key, null included; later inputs are ignored until
 * {@link #reset()}. Any type. Retraction is not supported.
 *
 * <p>Reversed ({@code aggReversed(acc, older)} is {@code agg(older, acc)}): the first call keeps the
 * accumulator, every later one returns the older input.
 */
final class FirstValueAggregator extends NonRetractingAggregator {
    private boolean seen;

    FirstValueAggregator(ColumnFunction function) {
        super(function);
    }

    @Override
    public Object agg(Object accumulator, Object input) {
        if (seen) {
            return accumulator;
        }
        seen = true;
        return input;
    }

    @Override
    public void reset() {
        seen = false;
    }
}
