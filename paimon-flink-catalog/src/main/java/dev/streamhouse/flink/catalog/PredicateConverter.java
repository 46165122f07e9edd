package dev.streamhouse.flink.catalog;

import dev.streamhouse.storage.predicate.Predicate;
import dev.streamhouse.storage.predicate.PredicateBuilder;
import dev.streamhouse.storage.types.DataType;
import dev.streamhouse.storage.types.DataTypeRoot;
import dev.streamhouse.storage.types.DecimalType;
import dev.streamhouse.storage.types.RowType;
import dev.streamhouse.storage.types.TimestampType;
import dev.streamhouse.storage.types.VarCharType;

import org.apache.flink.table.expressions.CallExpression;
import org.apache.flink.table.expressions.FieldReferenceExpression;
import org.apache.flink.table.expressions.ResolvedExpression;
import org.apache.flink.table.expressions.ValueLiteralExpression;
import org.apache.flink.table.functions.BuiltInFunctionDefinitions;
import org.apache.flink.table.functions.FunctionDefinition;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.utils.LogicalTypeChecks;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Converts Flink filter expressions (those {@code SupportsFilterPushDown.applyFilters} receives) into
 * storage {@link Predicate}s over a row type, for skipping files, manifests and row groups and for
 * filtering rows.
 *
 * <p>Convertible: {@code =, <>, <, <=, >, >=} between a column and a literal (either side), {@code IN}
 * with literals, {@code IS [NOT] NULL}, {@code LIKE 'abc%'} (starts with) and {@code LIKE 'abc'}
 * (equals) on VARCHAR columns, a bare BOOLEAN column, and {@code AND}, {@code OR}, {@code NOT} of
 * convertible expressions. A column may be wrapped in a widening {@code CAST} (to a wider integer or
 * decimal, a longer VARCHAR, a more precise timestamp). A conversion is exact: the predicate keeps
 * exactly the rows Flink's expression keeps; anything else ({@code NULL} literals, lossy literal
 * conversions, comparisons of CHAR columns, other functions) is not convertible.
 *
 * <p>Columns are found by name, so the row type must have the names the expressions use. Thread-safe.
 */
public final class PredicateConverter {
    private final RowType rowType;
    private final PredicateBuilder builder;

    public PredicateConverter(RowType rowType) {
        this.rowType = rowType;
        this.builder = new PredicateBuilder(rowType);
    }

    /** The predicate meaning exactly {@code expression}, or empty if there is none. */
    public Optional<Predicate> convert(ResolvedExpression expression) {
        try {
            return Optional.of(visit(expression));
        } catch (NotConvertible | IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /**
     * Splits the filters Flink offers a table source: all convertible ones are AND-ed into the predicate
     * to push down; in batch mode those over partition columns only are consumed (the source evaluates
     * them exactly on partition values), every other filter remains for Flink to apply.
     *
     * @param partitionKeys the table's partition columns
     * @param streaming whether the query is a streaming one (nothing is consumed then)
     */
    public static PushedFilters pushDown(RowType rowType, List<String> partitionKeys,
            List<ResolvedExpression> filters, boolean streaming) {
        PredicateConverter converter = new PredicateConverter(rowType);
        List<Predicate> predicates = new ArrayList<>();
        List<ResolvedExpression> consumed = new ArrayList<>();
        List<ResolvedExpression> remaining = new ArrayList<>();
        for (ResolvedExpression filter : filters) {
            Optional<Predicate> p = converter.convert(filter);
            p.ifPresent(predicates::add);
            if (p.isPresent() && !streaming && onlyPartitionColumns(p.get(), rowType, partitionKeys)) {
                consumed.add(filter);
            } else {
                remaining.add(filter);
            }
        }
        return new PushedFilters(predicates.isEmpty() ? null : PredicateBuilder.and(predicates), consumed, remaining);
    }

    private static boolean onlyPartitionColumns(Predicate predicate, RowType rowType, List<String> partitionKeys) {
        return PredicateBuilder.referencedFields(predicate).stream()
                .allMatch(i -> partitionKeys.contains(rowType.field(i).name()));
    }

    private Predicate visit(ResolvedExpression e) {
        if (e instanceof FieldReferenceExpression) {
            int index = column(e);
            if (rowType.typeAt(index).root() != DataTypeRoot.BOOLEAN) {
                throw new NotConvertible();
            }
            return builder.equal(index, Boolean.TRUE);
        }
        if (!(e instanceof CallExpression)) {
            throw new NotConvertible();
        }
        CallExpression call = (CallExpression) e;
        FunctionDefinition f = call.getFunctionDefinition();
        List<ResolvedExpression> args = call.getResolvedChildren();
        if (f == BuiltInFunctionDefinitions.AND || f == BuiltInFunctionDefinitions.OR) {
            List<Predicate> children = new ArrayList<>();
            for (ResolvedExpression arg : args) {
                children.add(visit(arg));
            }
            return f == BuiltInFunctionDefinitions.AND ? PredicateBuilder.and(children) : PredicateBuilder.or(children);
        }
        if (f == BuiltInFunctionDefinitions.NOT) {
            return visit(args.get(0)).negate().orElseThrow(NotConvertible::new);
        }
        if (f == BuiltInFunctionDefinitions.IS_NULL) {
            return builder.isNull(column(args.get(0)));
        }
        if (f == BuiltInFunctionDefinitions.IS_NOT_NULL) {
            return builder.isNotNull(column(args.get(0)));
        }
        if (f == BuiltInFunctionDefinitions.IN) {
            int index = comparableColumn(args.get(0));
            List<Object> values = new ArrayList<>();
            for (ResolvedExpression arg : args.subList(1, args.size())) {
                values.add(literal(arg, index));
            }
            return builder.in(index, values);
        }
        if (f == BuiltInFunctionDefinitions.LIKE) {
            return like(args);
        }
        return comparison(f, args);
    }

    private Predicate comparison(FunctionDefinition f, List<ResolvedExpression> args) {
        Comparison op = Comparison.of(f).orElseThrow(NotConvertible::new);
        if (args.size() != 2) {
            throw new NotConvertible();
        }
        boolean literalFirst = args.get(0) instanceof ValueLiteralExpression;
        ResolvedExpression columnSide = literalFirst ? args.get(1) : args.get(0);
        ResolvedExpression literalSide = literalFirst ? args.get(0) : args.get(1);
        int index = comparableColumn(columnSide);
        Object value = literal(literalSide, index);
        return (literalFirst ? op.flipped() : op).build(builder, index, value);
    }

    private Predicate like(List<ResolvedExpression> args) {
        if (args.size() != 2) {
            throw new NotConvertible(); // an ESCAPE clause
        }
        int index = column(args.get(0));
        if (rowType.typeAt(index).root() != DataTypeRoot.VARCHAR) {
            throw new NotConvertible();
        }
        String pattern = (String) literal(args.get(1), index);
        if (pattern.indexOf('_') >= 0 || pattern.indexOf('\\') >= 0) {
            throw new NotConvertible();
        }
        int firstPercent = pattern.indexOf('%');
        if (firstPercent < 0) {
            return builder.equal(index, pattern);
        }
        for (int i = firstPercent; i < pattern.length(); i++) {
            if (pattern.charAt(i) != '%') {
                throw new NotConvertible(); // a wildcard before the end
            }
        }
        return builder.startsWith(index, pattern.substring(0, firstPercent));
    }

    /** A column that comparisons may use: not CHAR (Flink pads CHAR values, stored values may differ). */
    private int comparableColumn(ResolvedExpression e) {
        int index = column(e);
        if (rowType.typeAt(index).root() == DataTypeRoot.CHAR) {
            throw new NotConvertible();
        }
        return index;
    }

    private Object literal(ResolvedExpression e, int columnIndex) {
        if (!(e instanceof ValueLiteralExpression)) {
            throw new NotConvertible();
        }
        return FilterLiterals.convert((ValueLiteralExpression) e, rowType.typeAt(columnIndex))
                .orElseThrow(NotConvertible::new);
    }

    /** The index of the referenced column, looking through a widening CAST. */
    private int column(ResolvedExpression e) {
        if (e instanceof FieldReferenceExpression) {
            int index = rowType.fieldIndex(((FieldReferenceExpression) e).getName());
            if (index < 0) {
                throw new NotConvertible();
            }
            return index;
        }
        if (e instanceof CallExpression
                && ((CallExpression) e).getFunctionDefinition() == BuiltInFunctionDefinitions.CAST
                && ((CallExpression) e).getResolvedChildren().get(0) instanceof FieldReferenceExpression) {
            int index = column(((CallExpression) e).getResolvedChildren().get(0));
            if (isWidening(rowType.typeAt(index), e.getOutputDataType().getLogicalType())) {
                return index;
            }
        }
        throw new NotConvertible();
    }

    /** Whether casting a column of type {@code from} to {@code to} keeps every value and its order. */
    static boolean isWidening(DataType from, LogicalType to) {
        LogicalTypeRoot target = to.getTypeRoot();
        switch (from.root()) {
            case TINYINT:
            case SMALLINT:
            case INTEGER:
            case BIGINT: {
                int digits = integerDigits(from.root().name());
                if (target == LogicalTypeRoot.DECIMAL) {
                    org.apache.flink.table.types.logical.DecimalType d =
                            (org.apache.flink.table.types.logical.DecimalType) to;
                    return d.getPrecision() - d.getScale() >= digits;
                }
                return isIntegerRoot(target) && integerDigits(target.name()) >= digits;
            }
            case DECIMAL: {
                DecimalType d = (DecimalType) from;
                if (target != LogicalTypeRoot.DECIMAL) {
                    return false;
                }
                int precision = LogicalTypeChecks.getPrecision(to);
                int scale = LogicalTypeChecks.getScale(to);
                return scale >= d.scale() && precision - scale >= d.precision() - d.scale();
            }
            case VARCHAR:
                return target == LogicalTypeRoot.VARCHAR
                        && LogicalTypeChecks.getLength(to) >= ((VarCharType) from).length();
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                return target == LogicalTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE
                        && LogicalTypeChecks.getPrecision(to) >= ((TimestampType) from).precision();
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                return target == LogicalTypeRoot.TIMESTAMP_WITH_LOCAL_TIME_ZONE
                        && LogicalTypeChecks.getPrecision(to) >= ((TimestampType) from).precision();
            case BOOLEAN:
            case DATE:
            case FLOAT:
            case DOUBLE:
                return target.name().equals(from.root().name());
            default:
                return false;
        }
    }

    private static boolean isIntegerRoot(LogicalTypeRoot root) {
        return root == LogicalTypeRoot.TINYINT || root == LogicalTypeRoot.SMALLINT
                || root == LogicalTypeRoot.INTEGER || root == LogicalTypeRoot.BIGINT;
    }

    /** Decimal digits of the largest value of an integer type (same names in both type systems). */
    private static int integerDigits(String rootName) {
        switch (rootName) {
            case "TINYINT":
                return 3;
            case "SMALLINT":
                return 5;
            case "INTEGER":
                return 10;
            default:
                return 19;
        }
    }

    /** The comparison functions, each with its mirror image for {@code literal op column}. */
    private enum Comparison {
        EQ, NE, LT, LE, GT, GE;

        static Optional<Comparison> of(FunctionDefinition f) {
            if (f == BuiltInFunctionDefinitions.EQUALS) {
                return Optional.of(EQ);
            } else if (f == BuiltInFunctionDefinitions.NOT_EQUALS) {
                return Optional.of(NE);
            } else if (f == BuiltInFunctionDefinitions.LESS_THAN) {
                return Optional.of(LT);
            } else if (f == BuiltInFunctionDefinitions.LESS_THAN_OR_EQUAL) {
                return Optional.of(LE);
            } else if (f == BuiltInFunctionDefinitions.GREATER_THAN) {
                return Optional.of(GT);
            } else if (f == BuiltInFunctionDefinitions.GREATER_THAN_OR_EQUAL) {
                return Optional.of(GE);
            }
            return Optional.empty();
        }

        Comparison flipped() {
            switch (this) {
                case LT:
                    return GT;
                case LE:
                    return GE;
                case GT:
                    return LT;
                case GE:
                    return LE;
                default:
                    return this;
            }
        }

        Predicate build(PredicateBuilder b, int index, Object value) {
            switch (this) {
                case EQ:
                    return b.equal(index, value);
                case NE:
                    return b.notEqual(index, value);
                case LT:
                    return b.lessThan(index, value);
                case LE:
                    return b.lessOrEqual(index, value);
                case GT:
                    return b.greaterThan(index, value);
                default:
                    return b.greaterOrEqual(index, value);
            }
        }
    }

    /** Thrown inside the conversion when an expression has no exact predicate. */
    private static final class NotConvertible extends RuntimeException {
        private static final long serialVersionUID = 1L;

        NotConvertible() {
            super(null, null, false, false);
        }
    }
}
