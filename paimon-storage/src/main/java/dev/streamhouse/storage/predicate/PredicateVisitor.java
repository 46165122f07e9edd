package dev.streamhouse.storage.predicate;

/** Visits the two kinds of predicate nodes. */
public interface PredicateVisitor<T> {
    T visit(LeafPredicate predicate);

    T visit(CompoundPredicate predicate);
}
