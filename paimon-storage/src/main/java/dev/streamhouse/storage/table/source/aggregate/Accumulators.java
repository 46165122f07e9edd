package dev.streamhouse.storage.table.source.aggregate;

import dev.streamhouse.storage.data.GenericRow;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.types.DataTypeRoot;
import dev.streamhouse.storage.types.RowType;

import java.util.List;

/**
 * The running state of {@link LocalAggregate}s over one split's rows: {@link #add} every row, then
 * {@link #result()} is the row of their partial results, in order. Integral values are summed and
 * compared as {@code long}s and narrowed to the column's type at the end: wrapping sums agree with
 * summing in the narrow type at every step. FLOAT sums are summed as floats, DOUBLE as doubles, in
 * the order the rows come. Not thread-safe.
 */
final class Accumulators {
    private final Accumulator[] accumulators;

    Accumulators(RowType readType, List<LocalAggregate> aggregates) {
        accumulators = new Accumulator[aggregates.size()];
        for (int i = 0; i < accumulators.length; i++) {
            accumulators[i] = of(readType, aggregates.get(i));
        }
    }

    void add(InternalRow row) {
        for (Accumulator a : accumulators) {
            a.add(row);
        }
    }

    GenericRow result() {
        GenericRow row = new GenericRow(accumulators.length);
        for (int i = 0; i < accumulators.length; i++) {
            row.setField(i, accumulators[i].result());
        }
        return row;
    }

    private static Accumulator of(RowType readType, LocalAggregate aggregate) {
        int f = aggregate.field();
        switch (aggregate.kind()) {
            case COUNT_STAR:
                return new CountStar();
            case COUNT:
                return new Count(f);
            default:
                break;
        }
        DataTypeRoot root = readType.typeAt(f).root();
        if (!LocalAggregate.supports(aggregate.kind(), readType.typeAt(f))) {
            throw new IllegalArgumentException("Cannot compute " + aggregate.kind() + " over column "
                    + readType.fieldNames().get(f) + " of type " + readType.typeAt(f));
        }
        if (aggregate.kind() == LocalAggregate.Kind.AVG_SUM) {
            return root == DataTypeRoot.FLOAT || root == DataTypeRoot.DOUBLE
                    ? new WideDoubleSum(f, root == DataTypeRoot.FLOAT) : new WideIntegralSum(f, root);
        }
        boolean sum = aggregate.kind() == LocalAggregate.Kind.SUM || aggregate.kind() == LocalAggregate.Kind.SUM0;
        boolean zeroWhenEmpty = aggregate.kind() == LocalAggregate.Kind.SUM0;
        boolean max = aggregate.kind() == LocalAggregate.Kind.MAX;
        switch (root) {
            case FLOAT:
                return sum ? new FloatSum(f, zeroWhenEmpty) : new FloatExtreme(f, max);
            case DOUBLE:
                return sum ? new DoubleSum(f, zeroWhenEmpty) : new DoubleExtreme(f, max);
            default:
                return sum ? new IntegralSum(f, root, zeroWhenEmpty) : new IntegralExtreme(f, root, max);
        }
    }

    private abstract static class Accumulator {
        abstract void add(InternalRow row);

        abstract Object result();
    }

    private static final class CountStar extends Accumulator {
        private long count;

        @Override
        void add(InternalRow row) {
            count++;
        }

        @Override
        Object result() {
            return count;
        }
    }

    private static final class Count extends Accumulator {
        private final int field;
        private long count;

        Count(int field) {
            this.field = field;
        }

        @Override
        void add(InternalRow row) {
            if (!row.isNullAt(field)) {
                count++;
            }
        }

        @Override
        Object result() {
            return count;
        }
    }

    /** Reads TINYINT, SMALLINT, INTEGER, DATE and BIGINT values as longs, and narrows results back. */
    private abstract static class Integral extends Accumulator {
        final int field;
        final DataTypeRoot root;

        Integral(int field, DataTypeRoot root) {
            this.field = field;
            this.root = root;
        }

        final long read(InternalRow row) {
            switch (root) {
                case TINYINT:
                    return row.byteAt(field);
                case SMALLINT:
                    return row.shortAt(field);
                case BIGINT:
                    return row.longAt(field);
                default:
                    return row.intAt(field);
            }
        }

        final Object narrow(long value) {
            switch (root) {
                case TINYINT:
                    return (byte) value;
                case SMALLINT:
                    return (short) value;
                case BIGINT:
                    return value;
                default:
                    return (int) value;
            }
        }
    }

    private static final class IntegralSum extends Integral {
        private final boolean zeroWhenEmpty;
        private long sum;
        private boolean any;

        IntegralSum(int field, DataTypeRoot root, boolean zeroWhenEmpty) {
            super(field, root);
            this.zeroWhenEmpty = zeroWhenEmpty;
        }

        @Override
        void add(InternalRow row) {
            if (!row.isNullAt(field)) {
                sum += read(row);
                any = true;
            }
        }

        @Override
        Object result() {
            return any || zeroWhenEmpty ? narrow(sum) : null;
        }
    }

    private static final class IntegralExtreme extends Integral {
        private final boolean max;
        private long value;
        private boolean any;

        IntegralExtreme(int field, DataTypeRoot root, boolean max) {
            super(field, root);
            this.max = max;
        }

        @Override
        void add(InternalRow row) {
            if (!row.isNullAt(field)) {
                long v = read(row);
                if (!any || (max ? v > value : v < value)) {
                    value = v;
                    any = true;
                }
            }
        }

        @Override
        Object result() {
            return any ? narrow(value) : null;
        }
    }

    /** An AVG's sum of an integral column: a BIGINT, 0 without values. */
    private static final class WideIntegralSum extends Integral {
        private long sum;

        WideIntegralSum(int field, DataTypeRoot root) {
            super(field, root);
        }

        @Override
        void add(InternalRow row) {
            if (!row.isNullAt(field)) {
                sum += read(row);
            }
        }

        @Override
        Object result() {
            return sum;
        }
    }

    /** An AVG's sum of a FLOAT or DOUBLE column: a DOUBLE, 0 without values. */
    private static final class WideDoubleSum extends Accumulator {
        private final int field;
        private final boolean floats;
        private double sum;

        WideDoubleSum(int field, boolean floats) {
            this.field = field;
            this.floats = floats;
        }

        @Override
        void add(InternalRow row) {
            if (!row.isNullAt(field)) {
                sum += floats ? row.floatAt(field) : row.doubleAt(field);
            }
        }

        @Override
        Object result() {
            return sum;
        }
    }

    private static final class FloatSum extends Accumulator {
        private final int field;
        private final boolean zeroWhenEmpty;
        private float sum;
        private boolean any;

        FloatSum(int field, boolean zeroWhenEmpty) {
            this.field = field;
            this.zeroWhenEmpty = zeroWhenEmpty;
        }

        @Override
        void add(InternalRow row) {
            if (!row.isNullAt(field)) {
                sum += row.floatAt(field);
                any = true;
            }
        }

        @Override
        Object result() {
            return any || zeroWhenEmpty ? sum : null;
        }
    }

    private static final class DoubleSum extends Accumulator {
        private final int field;
        private final boolean zeroWhenEmpty;
        private double sum;
        private boolean any;

        DoubleSum(int field, boolean zeroWhenEmpty) {
            this.field = field;
            this.zeroWhenEmpty = zeroWhenEmpty;
        }

        @Override
        void add(InternalRow row) {
            if (!row.isNullAt(field)) {
                sum += row.doubleAt(field);
                any = true;
            }
        }

        @Override
        Object result() {
            return any || zeroWhenEmpty ? sum : null;
        }
    }

    private static final class FloatExtreme extends Accumulator {
        private final int field;
        private final boolean max;
        private float value;
        private boolean any;

        FloatExtreme(int field, boolean max) {
            this.field = field;
            this.max = max;
        }

        @Override
        void add(InternalRow row) {
            if (!row.isNullAt(field)) {
                float v = row.floatAt(field);
                if (!any || (max ? v > value : v < value)) {
                    value = v;
                    any = true;
                }
            }
        }

        @Override
        Object result() {
            return any ? value : null;
        }
    }

    private static final class DoubleExtreme extends Accumulator {
        private final int field;
        private final boolean max;
        private double value;
        private boolean any;

        DoubleExtreme(int field, boolean max) {
            this.field = field;
            this.max = max;
        }

        @Override
        void add(InternalRow row) {
            if (!row.isNullAt(field)) {
                double v = row.doubleAt(field);
                if (!any || (max ? v > value : v < value)) {
                    value = v;
                    any = true;
                }
            }
        }

        @Override
        Object result() {
            return any ? value : null;
        }
    }
}
