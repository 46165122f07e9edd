package dev.streamhouse.storage.mergetree.aggregate;

/**
 * {@code primary-key}, the function of the key columns themselves (never configured by users): every
 * version carries the key, so both adding and retracting take the input.
 */
final class PrimaryKeyAggregator implements FieldAggregator {
    @Override
    public Object agg(Object accumulator, Object input) {
        return input;
    }

    @Override
    public Object retract(Object accumulator, Object retracted) {
        return retracted;
    }
}
