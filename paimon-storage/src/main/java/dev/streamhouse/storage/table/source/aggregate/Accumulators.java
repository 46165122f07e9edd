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
        boolean floats = root == DataTypeRoot.FLOAT;
        boolean floating = floats || root == DataTypeRoot.DOUBLE;
        boolean max = aggregate.kind() == LocalAggregate.Kind.MAX;
        switch (aggregate.kind()) {
            case AVG_SUM:
                return floating ? new FloatingSum(f, floats, false, true) : new WideIntegralSum(f, root);
            case SUM:
            case SUM0: {
                boolean zeroWhenEmpty = aggregate.kind() == LocalAggregate.Kind.SUM0;
                return floating ? new FloatingSum(f, floats, floats, zeroWhenEmpty)
                        : new IntegralSum(f, root, zeroWhenEmpty);
            }
            default:
                return floating ? new FloatingExtreme(f, floats, max) : new IntegralExtreme(f, root, max);
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

    /**
     * A sum of FLOAT or DOUBLE values, kept as a double. A FLOAT sum is rounded to float after every
     * addition, which gives exactly float arithmetic's result (a double holds the exact sum of two
     * floats before rounding); an AVG's sum of FLOATs ({@code resultFloat} false) stays a DOUBLE.
     */
    private static final class FloatingSum extends Accumulator {
        private final int field;
        private final boolean readFloat;
        private final boolean resultFloat;
        private final boolean zeroWhenEmpty;
        private double sum;
        private boolean any;

        FloatingSum(int field, boolean readFloat, boolean resultFloat, boolean zeroWhenEmpty) {
            this.field = field;
            this.readFloat = readFloat;
            this.resultFloat = resultFloat;
            this.zeroWhenEmpty = zeroWhenEmpty;
        }

        @Override
        void add(InternalRow row) {
            if (!row.isNullAt(field)) {
                double v = readFloat ? row.floatAt(field) : row.doubleAt(field);
                sum = resultFloat ? (float) (sum + v) : sum + v;
                any = true;
            }
        }

        @Override
        Object result() {
            if (!any && !zeroWhenEmpty) {
                return null;
            }
            return resultFloat ? (Object) (float) sum : (Object) sum;
        }
    }

    /** MIN or MAX of FLOAT or DOUBLE values, compared as doubles (which keeps floats' order and NaNs). */
    private static final class FloatingExtreme extends Accumulator {
        private final int field;
        private final boolean floats;
        private final boolean max;
        private double value;
        private boolean any;

        FloatingExtreme(int field, boolean floats, boolean max) {
            this.field = field;
            this.floats = floats;
            this.max = max;
        }

        @Override
        void add(InternalRow row) {
            if (!row.isNullAt(field)) {
                double v = floats ? row.floatAt(field) : row.doubleAt(field);
                if (!any || (max ? v > value : v < value)) {
                    value = v;
                    any = true;
                }
            }
        }

        @Override
        Object result() {
            if (!any) {
                return null;
            }
            return floats ? (Object) (float) value : (Object) value;
        }
    }
}
