package dev.streamhouse.storage.predicate;

import dev.streamhouse.storage.data.InternalRow;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** AND or OR of child predicates. */
public final class CompoundPredicate implements Predicate {
    private static final long serialVersionUID = 1L;

    /** The connective. */
    public enum Kind {
        AND,
        OR
    }

    private final Kind kind;
    private final List<Predicate> children;

    public CompoundPredicate(Kind kind, List<Predicate> children) {
        this.kind = Objects.requireNonNull(kind);
        this.children = List.copyOf(children);
    }

    public Kind kind() {
        return kind;
    }

    public List<Predicate> children() {
        return children;
    }

    @Override
    public boolean test(InternalRow row) {
        for (Predicate c : children) {
            boolean r = c.test(row);
            if (kind == Kind.AND && !r) {
                return false;
            }
            if (kind == Kind.OR && r) {
                return true;
            }
        }
        return kind == Kind.AND;
    }

    @Override
    public boolean test(long rowCount, InternalRow minValues, InternalRow maxValues, Long[] nullCounts) {
        for (Predicate c : children) {
            boolean r = c.test(rowCount, minValues, maxValues, nullCounts);
            if (kind == Kind.AND && !r) {
                return false;
            }
            if (kind == Kind.OR && r) {
                return true;
            }
        }
        return kind == Kind.AND;
    }

    @Override
    public Optional<Predicate> negate() {
        List<Predicate> negated = new ArrayList<>();
        for (Predicate c : children) {
            Optional<Predicate> n = c.negate();
            if (n.isEmpty()) {
                return Optional.empty();
            }
            negated.add(n.get());
        }
        return Optional.of(new CompoundPredicate(kind == Kind.AND ? Kind.OR : Kind.AND, negated));
    }

    @Override
    public <T> T visit(PredicateVisitor<T> visitor) {
        return visitor.visit(this);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CompoundPredicate
                && ((CompoundPredicate) o).kind == kind
                && ((CompoundPredicate) o).children.equals(children);
    }

    @Override
    public int hashCode() {
        return Objects.hash(kind, children);
    }

    @Override
    public String toString() {
        return kind + children.toString();
    }
}
