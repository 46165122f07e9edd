package dev.streamhouse.storage.mergetree.aggregate;

/**
 * {@code last_value}: the latest input, null included; a retraction leaves null. Any type. (Reversed,
 * the older input does not replace the accumulator.)
 */
final class LastValueAggregator implements FieldAggregator {
    @Override
    public Object agg(Object accumulator, Object input) {
        return input;
    }

    @Override
    public Object retract(Object accumulator, Object retracted) {
        return null;
    }
}
