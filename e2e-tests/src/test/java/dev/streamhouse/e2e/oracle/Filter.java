package dev.streamhouse.e2e.oracle;

import org.apache.paimon.predicate.PredicateBuilder;
import org.apache.paimon.types.DataType;
import org.apache.paimon.types.RowType;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A neutral row filter over named columns with canonical literals (see {@link Canon}), so one test
 * can push the same filter into Apache Paimon ({@link #toPaimon}), into our storage
 * ({@link #toOurs}) and re-apply it exactly to canonical rows ({@link #test}). Immutable.
 *
 * <p>{@link #test} uses SQL semantics: any comparison with NULL is false; strings compare by UTF-8
 * bytes like both stores do; DECIMAL compares by value.
 */
public abstract class Filter {

    /** Leaf operators. */
    public enum Op {
        EQ("="), NE("<>"), LT("<"), LE("<="), GT(">"), GE(">="), IS_NULL("IS NULL"), IS_NOT_NULL("IS NOT NULL"),
        IN("IN"), STARTS_WITH("STARTS WITH");

        private final String symbol;

        Op(String symbol) {
            this.symbol = symbol;
        }
    }

    private Filter() {}

    public static Filter eq(String column, Object literal) {
        return new Leaf(Op.EQ, column, Collections.singletonList(literal));
    }

    public static Filter ne(String column, Object literal) {
        return new Leaf(Op.NE, column, Collections.singletonList(literal));
    }

    public static Filter lt(String column, Object literal) {
        return new Leaf(Op.LT, column, Collections.singletonList(literal));
    }

    public static Filter le(String column, Object literal) {
        return new Leaf(Op.LE, column, Collections.singletonList(literal));
    }

    public static Filter gt(String column, Object literal) {
        return new Leaf(Op.GT, column, Collections.singletonList(literal));
    }

    public static Filter ge(String column, Object literal) {
        return new Leaf(Op.GE, column, Collections.singletonList(literal));
    }

    public static Filter isNull(String column) {
        return new Leaf(Op.IS_NULL, column, List.of());
    }

    public static Filter isNotNull(String column) {
        return new Leaf(Op.IS_NOT_NULL, column, List.of());
    }

    public static Filter in(String column, Object... literals) {
        return new Leaf(Op.IN, column, Arrays.asList(literals));
    }

    public static Filter startsWith(String column, String prefix) {
        return new Leaf(Op.STARTS_WITH, column, Collections.singletonList(prefix));
    }

    public static Filter and(Filter... children) {
        return new Compound(true, List.of(children));
    }

    public static Filter or(Filter... children) {
        return new Compound(false, List.of(children));
    }

    /** The columns this filter references. */
    public abstract Set<String> columns();

    /** This filter as a Paimon predicate over {@code rowType} (positions looked up by name). */
    public abstract org.apache.paimon.predicate.Predicate toPaimon(RowType rowType);

    /** This filter as our storage's predicate over {@code rowType} (positions looked up by name). */
    public abstract dev.streamhouse.storage.predicate.Predicate toOurs(dev.streamhouse.storage.types.RowType rowType);

    /** Whether a canonical row whose columns are described by {@code rowType} passes, exactly. */
    public abstract boolean test(CanonicalRow row, RowType rowType);

    public boolean test(CanonicalRow row, TableSpec spec) {
        return test(row, spec.paimonRowType());
    }

    /** The rows that pass, in their order. */
    public List<CanonicalRow> apply(List<CanonicalRow> rows, TableSpec spec) {
        RowType rt = spec.paimonRowType();
        return rows.stream().filter(r -> test(r, rt)).collect(Collectors.toList());
    }

    private static final class Leaf extends Filter {
        private final Op op;
        private final String column;
        private final List<Object> literals;

        Leaf(Op op, String column, List<Object> literals) {
            this.op = op;
            this.column = column;
            this.literals = literals;
            if (literals.stream().anyMatch(l -> l == null)) {
                throw new IllegalArgumentException("Cannot compare column '" + column + "' with NULL; use isNull");
            }
        }

        @Override
        public Set<String> columns() {
            return Set.of(column);
        }

        private int index(RowType rowType) {
            int idx = rowType.getFieldIndex(column);
            if (idx < 0) {
                throw new IllegalArgumentException(
                        "Cannot apply filter " + this + ": no column '" + column + "' in " + rowType.getFieldNames());
            }
            return idx;
        }

        @Override
        public org.apache.paimon.predicate.Predicate toPaimon(RowType rowType) {
            PredicateBuilder pb = new PredicateBuilder(rowType);
            int idx = index(rowType);
            DataType t = rowType.getTypeAt(idx);
            List<Object> lits = literals.stream().map(l -> PaimonRows.toPaimonValue(l, t)).collect(Collectors.toList());
            switch (op) {
                case EQ:
                    return pb.equal(idx, lits.get(0));
                case NE:
                    return pb.notEqual(idx, lits.get(0));
                case LT:
                    return pb.lessThan(idx, lits.get(0));
                case LE:
                    return pb.lessOrEqual(idx, lits.get(0));
                case GT:
                    return pb.greaterThan(idx, lits.get(0));
                case GE:
                    return pb.greaterOrEqual(idx, lits.get(0));
                case IS_NULL:
                    return pb.isNull(idx);
                case IS_NOT_NULL:
                    return pb.isNotNull(idx);
                case IN:
                    return pb.in(idx, lits);
                default:
                    return pb.startsWith(idx, lits.get(0));
            }
        }

        @Override
        public dev.streamhouse.storage.predicate.Predicate toOurs(dev.streamhouse.storage.types.RowType rowType) {
            dev.streamhouse.storage.predicate.PredicateBuilder pb =
                    new dev.streamhouse.storage.predicate.PredicateBuilder(rowType);
            int idx = pb.indexOf(column);
            dev.streamhouse.storage.types.DataType t = rowType.typeAt(idx);
            List<Object> lits = literals.stream().map(l -> OurRows.toOurValue(l, t)).collect(Collectors.toList());
            switch (op) {
                case EQ:
                    return pb.equal(idx, lits.get(0));
                case NE:
                    return pb.notEqual(idx, lits.get(0));
                case LT:
                    return pb.lessThan(idx, lits.get(0));
                case LE:
                    return pb.lessOrEqual(idx, lits.get(0));
                case GT:
                    return pb.greaterThan(idx, lits.get(0));
                case GE:
                    return pb.greaterOrEqual(idx, lits.get(0));
                case IS_NULL:
                    return pb.isNull(idx);
                case IS_NOT_NULL:
                    return pb.isNotNull(idx);
                case IN:
                    return pb.in(idx, lits);
                default:
                    return pb.startsWith(idx, lits.get(0));
            }
        }

        @Override
        public boolean test(CanonicalRow row, RowType rowType) {
            int idx = index(rowType);
            DataType t = rowType.getTypeAt(idx);
            Object v = row.get(idx);
            switch (op) {
                case IS_NULL:
                    return v == null;
                case IS_NOT_NULL:
                    return v != null;
                default:
                    break;
            }
            if (v == null) {
                return false;
            }
            List<Object> lits = literals.stream()
                    .map(l -> PaimonRows.toCanonicalValue(PaimonRows.toPaimonValue(l, t), t))
                    .collect(Collectors.toList());
            switch (op) {
                case EQ:
                    return compare(v, lits.get(0)) == 0;
                case NE:
                    return compare(v, lits.get(0)) != 0;
                case LT:
                    return compare(v, lits.get(0)) < 0;
                case LE:
                    return compare(v, lits.get(0)) <= 0;
                case GT:
                    return compare(v, lits.get(0)) > 0;
                case GE:
                    return compare(v, lits.get(0)) >= 0;
                case IN:
                    return lits.stream().anyMatch(l -> compare(v, l) == 0);
                default:
                    return ((String) v).startsWith((String) lits.get(0));
            }
        }

        @SuppressWarnings({"unchecked", "rawtypes"})
        private static int compare(Object a, Object b) {
            if (a instanceof String) {
                return Arrays.compareUnsigned(
                        ((String) a).getBytes(StandardCharsets.UTF_8), ((String) b).getBytes(StandardCharsets.UTF_8));
            }
            return ((Comparable) a).compareTo(b);
        }

        @Override
        public String toString() {
            if (literals.isEmpty()) {
                return column + " " + op.symbol;
            }
            String lits = literals.stream().map(Canon::format).collect(Collectors.joining(", "));
            return column + " " + op.symbol + " " + (op == Op.IN ? "(" + lits + ")" : lits);
        }
    }

    private static final class Compound extends Filter {
        private final boolean and;
        private final List<Filter> children;

        Compound(boolean and, List<Filter> children) {
            if (children.isEmpty()) {
                throw new IllegalArgumentException("Cannot build an empty " + (and ? "AND" : "OR"));
            }
            this.and = and;
            this.children = children;
        }

        @Override
        public Set<String> columns() {
            Set<String> out = new LinkedHashSet<>();
            children.forEach(c -> out.addAll(c.columns()));
            return out;
        }

        @Override
        public org.apache.paimon.predicate.Predicate toPaimon(RowType rowType) {
            List<org.apache.paimon.predicate.Predicate> ps = new ArrayList<>();
            children.forEach(c -> ps.add(c.toPaimon(rowType)));
            return and ? PredicateBuilder.and(ps) : PredicateBuilder.or(ps);
        }

        @Override
        public dev.streamhouse.storage.predicate.Predicate toOurs(dev.streamhouse.storage.types.RowType rowType) {
            List<dev.streamhouse.storage.predicate.Predicate> ps = new ArrayList<>();
            children.forEach(c -> ps.add(c.toOurs(rowType)));
            return and
                    ? dev.streamhouse.storage.predicate.PredicateBuilder.and(ps)
                    : dev.streamhouse.storage.predicate.PredicateBuilder.or(ps);
        }

        @Override
        public boolean test(CanonicalRow row, RowType rowType) {
            return and
                    ? children.stream().allMatch(c -> c.test(row, rowType))
                    : children.stream().anyMatch(c -> c.test(row, rowType));
        }

        @Override
        public String toString() {
            return children.stream().map(Object::toString).collect(Collectors.joining(and ? " AND " : " OR ", "(", ")"));
        }
    }
}
