package dev.streamhouse.storage.mergetree.aggregate;

/**
 * {@code last_non_null_value}: the latest non-null input. Retracting a non-null value leaves null (it
 * does not bring back an earlier value); retracting null keeps the accumulator. Any type.
 */
final class LastNonNullValueAggregator implements FieldAggregator {
    @Override
    public Object agg(Object accumulator, Object input) {
        return input == null ? accumulator : input;
    }

    @Override
    public Object retract(Object accumulator, Object retracted) {
        return retracted == null ? accumulator : null;
    }
}
