package dev.streamhouse.storage.mergetree.aggregate;

/**
 * Base of the functions that cannot take a value back (max, min, first_value, listagg, bitmaps,
 * sketches, ...): {@link #retract} always refuses, naming the column, the function and the option
 * {@code fields.<column>.ignore-retract} that makes the merge engine drop such retractions instead.
 */
abstract class NonRetractingAggregator implements FieldAggregator {
    private final ColumnFunction function;

    NonRetractingAggregator(ColumnFunction function) {
        this.function = function;
    }

    final ColumnFunction function() {
        return function;
    }

    @Override
    public final Object retract(Object accumulator, Object retracted) {
        throw function.retractionRefused();
    }
}
