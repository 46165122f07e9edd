package dev.streamhouse.storage.predicate;

import dev.streamhouse.storage.data.FieldGetter;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.InternalRowUtils;
import dev.streamhouse.storage.types.DataType;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/** A function of one field and literals, e.g. {@code price > 10}. */
public final class LeafPredicate implements Predicate {
    private static final long serialVersionUID = 1L;

    private final LeafFunction function;
    private final DataType type;
    private final int index;
    private final String fieldName;
    private final List<Object> literals;
    private transient FieldGetter getter;

    public LeafPredicate(LeafFunction function, DataType type, int index, String fieldName, List<Object> literals) {
        this.function = Objects.requireNonNull(function);
        this.type = Objects.requireNonNull(type);
        this.index = index;
        this.fieldName = fieldName;
        this.literals = List.copyOf(literals);
    }

    public LeafFunction function() {
        return function;
    }

    public DataType type() {
        return type;
    }

    public int index() {
        return index;
    }

    public String fieldName() {
        return fieldName;
    }

    /** Internal-representation literals; never null elements. */
    public List<Object> literals() {
        return literals;
    }

    /** The same predicate on another field position (e.g. in a projected row). */
    public LeafPredicate withIndex(int newIndex) {
        return new LeafPredicate(function, type, newIndex, fieldName, literals);
    }

    private Object value(InternalRow row) {
        if (getter == null) {
            getter = InternalRowUtils.fieldGetter(type, index);
        }
        return getter.get(row);
    }

    @Override
    public boolean test(InternalRow row) {
        return function.test(type, value(row), literals);
    }

    @Override
    public boolean test(long rowCount, InternalRow minValues, InternalRow maxValues, Long[] nullCounts) {
        Long nullCount = nullCounts == null || index >= nullCounts.length ? null : nullCounts[index];
        Object min = null;
        Object max = null;
        if (index < minValues.arity() && index < maxValues.arity()) {
            min = value(minValues);
            max = value(maxValues);
        }
        return function.test(type, rowCount, min, max, nullCount, literals);
    }

    @Override
    public Optional<Predicate> negate() {
        return function.negate().map(f -> new LeafPredicate(f, type, index, fieldName, literals));
    }

    @Override
    public <T> T visit(PredicateVisitor<T> visitor) {
        return visitor.visit(this);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof LeafPredicate)) {
            return false;
        }
        LeafPredicate that = (LeafPredicate) o;
        return index == that.index && function == that.function && type.equals(that.type)
                && Objects.equals(fieldName, that.fieldName) && literals.equals(that.literals);
    }

    @Override
    public int hashCode() {
        return Objects.hash(function, index, literals);
    }

    @Override
    public String toString() {
        return function + "(" + (fieldName != null ? fieldName : "$" + index)
                + (literals.isEmpty() ? "" : ", " + literals) + ")";
    }
}
