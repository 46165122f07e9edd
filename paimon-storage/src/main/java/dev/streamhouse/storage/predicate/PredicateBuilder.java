package dev.streamhouse.storage.predicate;

import dev.streamhouse.storage.data.BinaryString;
import dev.streamhouse.storage.data.Decimal;
import dev.streamhouse.storage.data.Timestamp;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.DecimalType;
import dev.streamhouse.storage.types.RowType;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * Builds predicates over a row type. Literals may be given as internal values or as the usual Java
 * values (String, LocalDate, LocalDateTime, BigDecimal, Instant, numbers), which are converted to the
 * field's internal representation.
 */
public final class PredicateBuilder {
    private final RowType rowType;

    public PredicateBuilder(RowType rowType) {
        this.rowType = rowType;
    }

    public int indexOf(String field) {
        return rowType.requireFieldIndex(field);
    }

    private Predicate leaf(LeafFunction f, int idx, Object... literals) {
        DataType type = rowType.typeAt(idx);
        List<Object> converted = new ArrayList<>(literals.length);
        for (Object l : literals) {
            if (l == null) {
                throw new IllegalArgumentException(
                        "Cannot compare field '" + rowType.field(idx).name() + "' with NULL; use isNull/isNotNull");
            }
            converted.add(toInternal(l, type));
        }
        return new LeafPredicate(f, type, idx, rowType.field(idx).name(), converted);
    }

    public Predicate equal(int idx, Object literal) {
        return leaf(LeafFunction.EQUAL, idx, literal);
    }

    public Predicate notEqual(int idx, Object literal) {
        return leaf(LeafFunction.NOT_EQUAL, idx, literal);
    }

    public Predicate lessThan(int idx, Object literal) {
        return leaf(LeafFunction.LESS_THAN, idx, literal);
    }

    public Predicate lessOrEqual(int idx, Object literal) {
        return leaf(LeafFunction.LESS_OR_EQUAL, idx, literal);
    }

    public Predicate greaterThan(int idx, Object literal) {
        return leaf(LeafFunction.GREATER_THAN, idx, literal);
    }

    public Predicate greaterOrEqual(int idx, Object literal) {
        return leaf(LeafFunction.GREATER_OR_EQUAL, idx, literal);
    }

    public Predicate isNull(int idx) {
        return leaf(LeafFunction.IS_NULL, idx);
    }

    public Predicate isNotNull(int idx) {
        return leaf(LeafFunction.IS_NOT_NULL, idx);
    }

    public Predicate in(int idx, List<?> literals) {
        return leaf(LeafFunction.IN, idx, literals.toArray());
    }

    public Predicate notIn(int idx, List<?> literals) {
        return leaf(LeafFunction.NOT_IN, idx, literals.toArray());
    }

    public Predicate startsWith(int idx, Object prefix) {
        return leaf(LeafFunction.STARTS_WITH, idx, prefix);
    }

    public Predicate between(int idx, Object lowerInclusive, Object upperInclusive) {
        return and(greaterOrEqual(idx, lowerInclusive), lessOrEqual(idx, upperInclusive));
    }

    public static Predicate and(Predicate... predicates) {
        return and(List.of(predicates));
    }

    /** AND of the predicates, flattening nested ANDs; one predicate is returned as is. */
    public static Predicate and(List<Predicate> predicates) {
        if (predicates.isEmpty()) {
            throw new IllegalArgumentException("AND needs at least one predicate");
        }
        List<Predicate> flat = new ArrayList<>();
        for (Predicate p : predicates) {
            flat.addAll(splitAnd(p));
        }
        return flat.size() == 1 ? flat.get(0) : new CompoundPredicate(CompoundPredicate.Kind.AND, flat);
    }

    public static Predicate or(Predicate... predicates) {
        return or(List.of(predicates));
    }

    public static Predicate or(List<Predicate> predicates) {
        if (predicates.isEmpty()) {
            throw new IllegalArgumentException("OR needs at least one predicate");
        }
        return predicates.size() == 1 ? predicates.get(0) : new CompoundPredicate(CompoundPredicate.Kind.OR, predicates);
    }

    /** The conjuncts of a predicate (itself if it is not an AND); empty for null. */
    public static List<Predicate> splitAnd(Predicate predicate) {
        if (predicate == null) {
            return Collections.emptyList();
        }
        if (predicate instanceof CompoundPredicate
                && ((CompoundPredicate) predicate).kind() == CompoundPredicate.Kind.AND) {
            List<Predicate> out = new ArrayList<>();
            for (Predicate c : ((CompoundPredicate) predicate).children()) {
                out.addAll(splitAnd(c));
            }
            return out;
        }
        return List.of(predicate);
    }

    /**
     * Rewrites field positions with {@code mapping[oldIndex] = newIndex}; empty if the predicate refers
     * to a field mapped to -1.
     */
    public static Optional<Predicate> transformFieldMapping(Predicate predicate, int[] mapping) {
        return predicate.visit(new PredicateVisitor<Optional<Predicate>>() {
            @Override
            public Optional<Predicate> visit(LeafPredicate leaf) {
                int idx = leaf.index() < mapping.length ? mapping[leaf.index()] : -1;
                return idx < 0 ? Optional.empty() : Optional.of(leaf.withIndex(idx));
            }

            @Override
            public Optional<Predicate> visit(CompoundPredicate compound) {
                List<Predicate> children = new ArrayList<>();
                for (Predicate c : compound.children()) {
                    Optional<Predicate> t = c.visit(this);
                    if (t.isEmpty()) {
                        return Optional.empty();
                    }
                    children.add(t.get());
                }
                return Optional.of(new CompoundPredicate(compound.kind(), children));
            }
        });
    }

    /**
     * The conjuncts of {@code predicate} that only use mapped fields, rewritten by the mapping and
     * AND-ed; empty if none. Safe for pruning: dropping conjuncts only widens the filter.
     */
    public static Optional<Predicate> pickByFieldMapping(Predicate predicate, int[] mapping) {
        List<Predicate> picked = new ArrayList<>();
        for (Predicate c : splitAnd(predicate)) {
            transformFieldMapping(c, mapping).ifPresent(picked::add);
        }
        return picked.isEmpty() ? Optional.empty() : Optional.of(and(picked));
    }

    /** The field positions a predicate refers to, ascending. */
    public static java.util.SortedSet<Integer> referencedFields(Predicate predicate) {
        java.util.SortedSet<Integer> out = new java.util.TreeSet<>();
        predicate.visit(new PredicateVisitor<Void>() {
            @Override
            public Void visit(LeafPredicate leaf) {
                out.add(leaf.index());
                return null;
            }

            @Override
            public Void visit(CompoundPredicate compound) {
                compound.children().forEach(c -> c.visit(this));
                return null;
            }
        });
        return out;
    }

    /**
     * The literal as a whole number within [min, max]. Narrowing silently (wrapping 5000000000 to an
     * int, truncating 1.5 to 1) would make the predicate select other rows than asked for.
     */
    private static long exactIntegral(Object literal, DataType type, long min, long max) {
        try {
            long value = new BigDecimal(literal.toString()).longValueExact();
            if (value >= min && value <= max) {
                return value;
            }
        } catch (ArithmeticException | NumberFormatException notWholeOrTooLarge) {
            // reported below
        }
        throw new IllegalArgumentException(
                "Cannot compare a " + type + " column with literal " + literal
                        + ": it is not a whole number in the column's range");
    }

    /** Converts a Java or internal literal to the internal representation of {@code type}. */
    public static Object toInternal(Object literal, DataType type) {
        switch (type.root()) {
            case CHAR:
            case VARCHAR:
                return literal instanceof BinaryString ? literal : BinaryString.fromString(literal.toString());
            case BOOLEAN:
                return (Boolean) literal;
            case TINYINT:
                return (byte) exactIntegral(literal, type, Byte.MIN_VALUE, Byte.MAX_VALUE);
            case SMALLINT:
                return (short) exactIntegral(literal, type, Short.MIN_VALUE, Short.MAX_VALUE);
            case INTEGER:
                return (int) exactIntegral(literal, type, Integer.MIN_VALUE, Integer.MAX_VALUE);
            case BIGINT:
                return exactIntegral(literal, type, Long.MIN_VALUE, Long.MAX_VALUE);
            case FLOAT:
                return ((Number) literal).floatValue();
            case DOUBLE:
                return ((Number) literal).doubleValue();
            case DATE:
                return literal instanceof LocalDate ? (int) ((LocalDate) literal).toEpochDay() : ((Number) literal).intValue();
            case TIME_WITHOUT_TIME_ZONE:
                return literal instanceof LocalTime
                        ? (int) (((LocalTime) literal).toNanoOfDay() / 1_000_000)
                        : ((Number) literal).intValue();
            case DECIMAL: {
                DecimalType d = (DecimalType) type;
                if (literal instanceof Decimal) {
                    return literal;
                }
                BigDecimal bd = literal instanceof BigDecimal ? (BigDecimal) literal : new BigDecimal(literal.toString());
                Decimal converted = Decimal.fromBigDecimal(bd, d.precision(), d.scale());
                if (converted == null) {
                    throw new IllegalArgumentException("Literal " + literal + " does not fit " + type);
                }
                return converted;
            }
            case TIMESTAMP_WITHOUT_TIME_ZONE:
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                if (literal instanceof Timestamp) {
                    return literal;
                } else if (literal instanceof LocalDateTime) {
                    return Timestamp.fromLocalDateTime((LocalDateTime) literal);
                } else if (literal instanceof Instant) {
                    return Timestamp.fromInstant((Instant) literal);
                }
                return Timestamp.fromEpochMillis(((Number) literal).longValue());
            case BINARY:
            case VARBINARY:
                return (byte[]) literal;
            default:
                throw new IllegalArgumentException("Cannot filter on a column of type " + type);
        }
    }
}
