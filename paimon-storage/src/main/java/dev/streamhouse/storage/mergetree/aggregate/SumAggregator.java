package dev.streamhouse.storage.mergetree.aggregate;

/**
 * {@code sum}: adds the non-null values of a numeric column; a retraction subtracts. Null never
 * contributes: a null input keeps the accumulator, and a null accumulator takes the input (or, when
 * retracting, the negated input). Overflow follows {@link Arithmetic}.
 */
final class SumAggregator implements FieldAggregator {
    private final Arithmetic arithmetic;

    private SumAggregator(Arithmetic arithmetic) {
        this.arithmetic = arithmetic;
    }

    static FieldAggregator create(ColumnFunction function) {
        if (!Arithmetic.NUMERIC.contains(function.type().root())) {
            throw function.typeRefused(Arithmetic.NUMERIC_TYPES);
        }
        return new SumAggregator(new Arithmetic(function.type().root()));
    }

    @Override
    public Object agg(Object accumulator, Object input) {
        if (accumulator == null || input == null) {
            return accumulator == null ? input : accumulator;
        }
        return arithmetic.add(accumulator, input);
    }

    @Override
    public Object retract(Object accumulator, Object retracted) {
        if (accumulator == null || retracted == null) {
            return accumulator == null ? arithmetic.negate(retracted) : accumulator;
        }
        return arithmetic.subtract(accumulator, retracted);
    }
}
