package dev.streamhouse.storage.predicate;

import dev.streamhouse.storage.data.InternalRow;

import java.io.Serializable;
import java.util.Optional;

/**
 * A filter over rows of some row type, used both to test rows and to skip files, manifests and
 * Parquet row groups by their statistics. Field references are positions in that row type.
 */
public interface Predicate extends Serializable {

    /** Whether this row satisfies the predicate (SQL semantics: a NULL comparison is not true). */
    boolean test(InternalRow row);

    /**
     * Whether a set of {@code rowCount} rows with these statistics may contain a matching row. A null
     * min/max field or null count (or a null {@code nullCounts} array) means unknown; unknown must
     * answer true. Must never answer false when a matching row exists.
     *
     * @param minValues per-field minimum, same arity as the row type
     * @param maxValues per-field maximum, same arity as the row type
     */
    boolean test(long rowCount, InternalRow minValues, InternalRow maxValues, Long[] nullCounts);

    /** The logical negation, if expressible. */
    Optional<Predicate> negate();

    <T> T visit(PredicateVisitor<T> visitor);
}
