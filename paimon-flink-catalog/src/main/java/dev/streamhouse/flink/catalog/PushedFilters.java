package dev.streamhouse.flink.catalog;

import dev.streamhouse.storage.predicate.Predicate;

import org.apache.flink.table.expressions.ResolvedExpression;

import java.util.List;
import java.util.Optional;

/**
 * The outcome of offering filters to a table source (see {@link PredicateConverter#pushDown}): the
 * predicate to push into the scan, the filters the source consumes and those Flink must still apply.
 * {@code SupportsFilterPushDown.Result.of(consumedFilters(), remainingFilters())} is the answer to
 * give Flink.
 */
public final class PushedFilters {
    private final Predicate predicate;
    private final List<ResolvedExpression> consumedFilters;
    private final List<ResolvedExpression> remainingFilters;

    PushedFilters(Predicate predicate, List<ResolvedExpression> consumedFilters,
            List<ResolvedExpression> remainingFilters) {
        this.predicate = predicate;
        this.consumedFilters = List.copyOf(consumedFilters);
        this.remainingFilters = List.copyOf(remainingFilters);
    }

    /** The AND of every convertible filter, consumed or not; empty if none converts. */
    public Optional<Predicate> predicate() {
        return Optional.ofNullable(predicate);
    }

    /** Filters the source applies exactly (partition-only filters in batch mode). */
    public List<ResolvedExpression> consumedFilters() {
        return consumedFilters;
    }

    /** Filters Flink must still apply after the scan. */
    public List<ResolvedExpression> remainingFilters() {
        return remainingFilters;
    }
}
