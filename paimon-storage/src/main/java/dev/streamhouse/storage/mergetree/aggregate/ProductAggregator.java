package dev.streamhouse.storage.mergetree.aggregate;

/**
 * {@code product}: multiplies the non-null values of a numeric column; a retraction divides (truncating
 * for integer types). Null never contributes, and unlike {@code sum} a retraction into a null
 * accumulator leaves it null. Dividing an integer by zero, or a decimal without a finite quotient,
 * throws {@link ArithmeticException}.
 */
final class ProductAggregator implements FieldAggregator {
    private final ColumnFunction function;
    private final Arithmetic arithmetic;

    private ProductAggregator(ColumnFunction function, Arithmetic arithmetic) {
        this.function = function;
        this.arithmetic = arithmetic;
    }

    static FieldAggregator create(ColumnFunction function) {
        if (!Arithmetic.NUMERIC.contains(function.type().root())) {
            throw function.typeRefused(Arithmetic.NUMERIC_TYPES);
        }
        return new ProductAggregator(function, new Arithmetic(function.type().root()));
    }

    @Override
    public Object agg(Object accumulator, Object input) {
        if (accumulator == null || input == null) {
            return accumulator == null ? input : accumulator;
        }
        return arithmetic.multiply(accumulator, input);
    }

    @Override
    public Object retract(Object accumulator, Object retracted) {
        if (accumulator == null || retracted == null) {
            return accumulator;
        }
        try {
            return arithmetic.divide(accumulator, retracted);
        } catch (ArithmeticException e) {
            ArithmeticException named = new ArithmeticException("Cannot retract " + retracted + " from the product "
                    + accumulator + " of column '" + function.column() + "': " + e.getMessage());
            named.initCause(e);
            throw named;
        }
    }
}
