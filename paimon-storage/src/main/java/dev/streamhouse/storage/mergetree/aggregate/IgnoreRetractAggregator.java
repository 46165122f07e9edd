package dev.streamhouse.storage.mergetree.aggregate;

/**
 * A function with {@code fields.<column>.ignore-retract} = 'true': retractions leave the accumulator
 * as it is, everything else is the wrapped function's.
 *
 * <p>{@link #aggReversed} is deliberately not forwarded: it is {@code agg(input, accumulator)} of the
 * wrapped function, as in Apache Paimon 1.3.1, whose wrapper does not forward it either. The only
 * function with its own {@code aggReversed} is {@code collect}, so with this option a reversed collect
 * puts the older elements first instead of last.
 */
final class IgnoreRetractAggregator implements FieldAggregator {
    private final FieldAggregator wrapped;

    IgnoreRetractAggregator(FieldAggregator wrapped) {
        this.wrapped = wrapped;
    }

    @Override
    public Object agg(Object accumulator, Object input) {
        return wrapped.agg(accumulator, input);
    }

    @Override
    public Object retract(Object accumulator, Object retracted) {
        return accumulator;
    }

    @Override
    public void reset() {
        wrapped.reset();
    }
}
