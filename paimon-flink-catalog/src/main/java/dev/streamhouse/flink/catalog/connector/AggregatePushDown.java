package dev.streamhouse.flink.catalog.connector;

import dev.streamhouse.storage.table.source.aggregate.AggregatingTableRead;
import dev.streamhouse.storage.table.source.aggregate.LocalAggregate;
import dev.streamhouse.storage.types.RowType;
import org.apache.flink.table.expressions.AggregateExpression;
import org.apache.flink.table.expressions.FieldReferenceExpression;
import org.apache.flink.table.types.DataType;
import org.apache.flink.table.types.logical.LogicalType;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The local phase of a batch aggregation computed in the source: Flink's planner offers a scan the
 * local aggregates of an aggregation without {@code GROUP BY} directly above it (no filter left for
 * Flink to apply, no expression inside the calls), and the source emits per split one row of partial
 * results ({@link AggregatingTableRead}), which Flink's final phase merges. Accepted, all or nothing:
 * {@code COUNT(*)}, {@code COUNT(x)}, and {@code SUM}, {@code AVG} (a SUM0 and a COUNT), {@code MIN},
 * {@code MAX} over TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE (MIN and MAX also DATE), without
 * DISTINCT or FILTER; the row of partial results must have the types Flink's plan expects, field by
 * field, or nothing is pushed. Anything else (DECIMAL sums, strings, grouping) is left to
 * Flink, which computes it from the rows read, so the answer never depends on what was pushed.
 */
final class AggregatePushDown {
    /** Flink's aggregate function classes (planner classes, named only). */
    private static final String PACKAGE = "org.apache.flink.table.planner.functions.aggfunctions.";

    private AggregatePushDown() {}

    /**
     * The aggregates to compute over rows of {@code readType} (the scan's projected row), or empty when
     * any of them cannot be, or when they are grouped.
     */
    static Optional<List<LocalAggregate>> of(List<int[]> groupingSets, List<AggregateExpression> expressions,
            DataType producedDataType, RowType readType) {
        if (groupingSets.size() != 1 || groupingSets.get(0).length != 0 || expressions.isEmpty()) {
            return Optional.empty();
        }
        List<LogicalType> expected = producedDataType.getLogicalType().getChildren();
        List<LocalAggregate> aggregates = new ArrayList<>();
        for (AggregateExpression e : expressions) {
            if (e.isDistinct() || e.getFilterExpression().isPresent() || e.isApproximate()) {
                return Optional.empty();
            }
            Optional<LocalAggregate.Kind> kind = kind(e.getFunctionDefinition().getClass().getName());
            if (kind.isEmpty()) {
                return Optional.empty();
            }
            if (kind.get() == LocalAggregate.Kind.COUNT_STAR) {
                if (!e.getArgs().isEmpty()) {
                    return Optional.empty();
                }
                aggregates.add(LocalAggregate.countStar());
                continue;
            }
            if (e.getArgs().size() != 1) {
                return Optional.empty();
            }
            FieldReferenceExpression arg = e.getArgs().get(0);
            int field = arg.getFieldIndex();
            if (field < 0 || field >= readType.fieldCount() || !LocalAggregate.supports(kind.get(), readType.typeAt(field))) {
                return Optional.empty();
            }
            LocalAggregate aggregate = new LocalAggregate(kind.get(), field);
            if (kind.get() == LocalAggregate.Kind.SUM0 && aggregates.size() < expected.size()
                    && !sameRoot(expected.get(aggregates.size()), aggregate.resultType(readType))) {
                // The planner hands an AVG over as a SUM0 and a COUNT whose partial sum is AVG's own: a
                // BIGINT or DOUBLE, not the column's type.
                aggregate = new LocalAggregate(LocalAggregate.Kind.AVG_SUM, field);
            }
            aggregates.add(aggregate);
        }
        // The row Flink expects must be the one computed, field by field.
        RowType computed = AggregatingTableRead.outputType(readType, aggregates);
        if (expected.size() != computed.fieldCount()) {
            return Optional.empty();
        }
        for (int i = 0; i < expected.size(); i++) {
            if (!sameRoot(expected.get(i), computed.typeAt(i))) {
                return Optional.empty();
            }
        }
        return Optional.of(aggregates);
    }

    private static boolean sameRoot(LogicalType flink, dev.streamhouse.storage.types.DataType ours) {
        return flink.getTypeRoot().name().equals(ours.root().name());
    }

    private static Optional<LocalAggregate.Kind> kind(String className) {
        if (!className.startsWith(PACKAGE)) {
            return Optional.empty();
        }
        String name = className.substring(PACKAGE.length());
        if (name.equals("Count1AggFunction")) {
            return Optional.of(LocalAggregate.Kind.COUNT_STAR);
        }
        if (name.equals("CountAggFunction")) {
            return Optional.of(LocalAggregate.Kind.COUNT);
        }
        if (name.startsWith("Sum0AggFunction$")) {
            return Optional.of(LocalAggregate.Kind.SUM0);
        }
        if (name.startsWith("SumAggFunction$")) {
            return Optional.of(LocalAggregate.Kind.SUM);
        }
        if (name.startsWith("MaxAggFunction$")) {
            return Optional.of(LocalAggregate.Kind.MAX);
        }
        if (name.startsWith("MinAggFunction$")) {
            return Optional.of(LocalAggregate.Kind.MIN);
        }
        return Optional.empty();
    }
}
