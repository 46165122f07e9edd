package dev.streamhouse.storage.mergetree.aggregate;

/**
 * One column's aggregate function in the {@code aggregation} merge engine (and in
 * {@code partial-update} with {@code fields.<f>.aggregate-function}): it folds the column's values of
 * a key's versions, oldest first, into an accumulator. Values are in the storage's internal
 * representation ({@code BinaryString}, {@code Decimal}, {@code Timestamp}, {@code byte[]},
 * {@code InternalArray}, {@code InternalMap}, {@code InternalRow}, boxed primitives); null is SQL NULL.
 *
 * <p>Contract: {@link #reset()} starts a key; then {@link #agg} or {@link #retract} per version.
 * Neither may modify its arguments: a result that differs from both is a new object. Instances keep
 * per-key state (e.g. whether a first value was seen), so each merge function has its own; they
 * are not thread-safe.
 */
public interface FieldAggregator {

    /**
     * The accumulator after adding {@code input}; either may be null.
     *
     * @throws IllegalArgumentException if the values cannot be combined (e.g. {@code max} of a type
     *     without order, a bitmap or sketch that does not deserialize)
     */
    Object agg(Object accumulator, Object input);

    /**
     * Like {@link #agg} when {@code input} is older than everything in {@code accumulator} (a
     * partial-update sequence group receiving a version that sorts before the current one). By default,
     * as in Apache Paimon, this is {@code agg(input, accumulator)}: the older value taken as the
     * accumulator, which matters for functions with per-key state such as {@code first_value}.
     */
    default Object aggReversed(Object accumulator, Object input) {
        return agg(input, accumulator);
    }

    /**
     * The accumulator after removing {@code retracted} (the value of a -U or -D version).
     *
     * @throws UnsupportedOperationException if the function cannot retract; the message names the
     *     function and the option {@code fields.<field>.ignore-retract}
     * @throws ArithmeticException if {@code product} cannot divide (an integer zero, a decimal without
     *     a finite quotient)
     */
    Object retract(Object accumulator, Object retracted);

    /** Starts a new key. */
    default void reset() {}
}
