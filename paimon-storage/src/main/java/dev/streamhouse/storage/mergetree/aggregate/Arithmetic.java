package dev.streamhouse.storage.mergetree.aggregate;

import dev.streamhouse.storage.data.Decimal;
import dev.streamhouse.storage.types.DataTypeRoot;

import java.math.BigDecimal;
import java.util.EnumSet;
import java.util.Set;

/**
 * The arithmetic of {@code sum} and {@code product} on non-null values of one numeric type, with
 * Apache Paimon's overflow behaviour: TINYINT, SMALLINT, INT and BIGINT wrap around, FLOAT and DOUBLE
 * follow IEEE 754, DECIMAL results keep the left operand's precision and scale (rounding half up) and
 * become null when they no longer fit, except that a sum or difference of two compact decimals
 * (precision at most 18) is exact and not checked against the precision while it fits a long.
 */
final class Arithmetic {
    /** The roots of Paimon's NUMERIC family, which sum and product accept. */
    static final Set<DataTypeRoot> NUMERIC = EnumSet.of(DataTypeRoot.TINYINT, DataTypeRoot.SMALLINT,
            DataTypeRoot.INTEGER, DataTypeRoot.BIGINT, DataTypeRoot.FLOAT, DataTypeRoot.DOUBLE, DataTypeRoot.DECIMAL);

    static final String NUMERIC_TYPES = "numeric types (TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE, DECIMAL)";

    private final DataTypeRoot root;

    Arithmetic(DataTypeRoot root) {
        if (!NUMERIC.contains(root)) {
            throw new IllegalArgumentException("Not a numeric type: " + root);
        }
        this.root = root;
    }

    Object add(Object a, Object b) {
        switch (root) {
            case TINYINT:
                return (byte) ((Byte) a + (Byte) b);
            case SMALLINT:
                return (short) ((Short) a + (Short) b);
            case INTEGER:
                return (Integer) a + (Integer) b;
            case BIGINT:
                return (Long) a + (Long) b;
            case FLOAT:
                return (Float) a + (Float) b;
            case DOUBLE:
                return (Double) a + (Double) b;
            default:
                return addDecimals((Decimal) a, (Decimal) b, false);
        }
    }

    Object subtract(Object a, Object b) {
        switch (root) {
            case TINYINT:
                return (byte) ((Byte) a - (Byte) b);
            case SMALLINT:
                return (short) ((Short) a - (Short) b);
            case INTEGER:
                return (Integer) a - (Integer) b;
            case BIGINT:
                return (Long) a - (Long) b;
            case FLOAT:
                return (Float) a - (Float) b;
            case DOUBLE:
                return (Double) a - (Double) b;
            default:
                return addDecimals((Decimal) a, (Decimal) b, true);
        }
    }

    Object multiply(Object a, Object b) {
        switch (root) {
            case TINYINT:
                return (byte) ((Byte) a * (Byte) b);
            case SMALLINT:
                return (short) ((Short) a * (Short) b);
            case INTEGER:
                return (Integer) a * (Integer) b;
            case BIGINT:
                return (Long) a * (Long) b;
            case FLOAT:
                return (Float) a * (Float) b;
            case DOUBLE:
                return (Double) a * (Double) b;
            default:
                Decimal x = (Decimal) a;
                return Decimal.fromBigDecimal(x.toBigDecimal().multiply(((Decimal) b).toBigDecimal()),
                        x.precision(), x.scale());
        }
    }

    /**
     * The quotient; integers divide truncating, and an integer division by zero or a decimal quotient
     * without a finite expansion throws {@link ArithmeticException}.
     */
    Object divide(Object a, Object b) {
        switch (root) {
            case TINYINT:
                return (byte) ((Byte) a / (Byte) b);
            case SMALLINT:
                return (short) ((Short) a / (Short) b);
            case INTEGER:
                return (Integer) a / (Integer) b;
            case BIGINT:
                return (Long) a / (Long) b;
            case FLOAT:
                return (Float) a / (Float) b;
            case DOUBLE:
                return (Double) a / (Double) b;
            default:
                Decimal x = (Decimal) a;
                return Decimal.fromBigDecimal(x.toBigDecimal().divide(((Decimal) b).toBigDecimal()),
                        x.precision(), x.scale());
        }
    }

    /** {@code -a}; null stays null. A decimal negation is checked against the precision. */
    Object negate(Object a) {
        if (a == null) {
            return null;
        }
        switch (root) {
            case TINYINT:
                return (byte) -(Byte) a;
            case SMALLINT:
                return (short) -(Short) a;
            case INTEGER:
                return -(Integer) a;
            case BIGINT:
                return -(Long) a;
            case FLOAT:
                return -(Float) a;
            case DOUBLE:
                return -(Double) a;
            default:
                Decimal d = (Decimal) a;
                return Decimal.fromBigDecimal(d.toBigDecimal().negate(), d.precision(), d.scale());
        }
    }

    private static Decimal addDecimals(Decimal a, Decimal b, boolean subtract) {
        int precision = a.precision();
        int scale = a.scale();
        if (a.isCompact() && b.isCompact() && a.scale() == b.scale()) {
            try {
                long unscaled = subtract
                        ? Math.subtractExact(a.toUnscaledLong(), b.toUnscaledLong())
                        : Math.addExact(a.toUnscaledLong(), b.toUnscaledLong());
                return Decimal.fromUnscaledLong(unscaled, precision, scale);
            } catch (ArithmeticException longOverflow) {
                // falls back to the checked BigDecimal result below, as Paimon does
            }
        }
        BigDecimal x = a.toBigDecimal();
        BigDecimal y = b.toBigDecimal();
        return Decimal.fromBigDecimal(subtract ? x.subtract(y) : x.add(y), precision, scale);
    }
}
