package dev.streamhouse.storage.types;

/** {@code DECIMAL(p, s)} with precision 1..38 and scale 0..p. */
public final class DecimalType extends DataType {
    private static final long serialVersionUID = 1L;
    public static final int MAX_PRECISION = 38;
    /** Largest precision whose unscaled value fits a long ("compact" decimals). */
    public static final int MAX_COMPACT_PRECISION = 18;

    private final int precision;
    private final int scale;

    public DecimalType(boolean nullable, int precision, int scale) {
        super(nullable, DataTypeRoot.DECIMAL);
        if (precision < 1 || precision > MAX_PRECISION) {
            throw new IllegalArgumentException(
                    "DECIMAL precision must be between 1 and 38, got " + precision);
        }
        if (scale < 0 || scale > precision) {
            throw new IllegalArgumentException(
                    "DECIMAL scale must be between 0 and the precision " + precision + ", got " + scale);
        }
        this.precision = precision;
        this.scale = scale;
    }

    public int precision() {
        return precision;
    }

    public int scale() {
        return scale;
    }

    public boolean isCompact() {
        return precision <= MAX_COMPACT_PRECISION;
    }

    @Override
    public DataType copy(boolean nullable) {
        return new DecimalType(nullable, precision, scale);
    }

    @Override
    protected String sqlWithoutNullability() {
        return "DECIMAL(" + precision + ", " + scale + ")";
    }

    @Override
    public boolean equals(Object o) {
        return super.equals(o) && ((DecimalType) o).precision == precision && ((DecimalType) o).scale == scale;
    }

    @Override
    public int hashCode() {
        return 31 * (31 * super.hashCode() + precision) + scale;
    }
}
