package dev.streamhouse.storage.types;

/**
 * {@code TIMESTAMP(p)} (wall-clock, no zone) or {@code TIMESTAMP(p) WITH LOCAL TIME ZONE} (an instant),
 * precision 0..9.
 */
public final class TimestampType extends DataType {
    private static final long serialVersionUID = 1L;
    /** Largest precision stored as a plain epoch-millis long ("compact" timestamps). */
    public static final int MAX_COMPACT_PRECISION = 3;

    private final int precision;

    public TimestampType(boolean nullable, int precision, boolean withLocalTimeZone) {
        super(nullable,
                withLocalTimeZone
                        ? DataTypeRoot.TIMESTAMP_WITH_LOCAL_TIME_ZONE
                        : DataTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE);
        if (precision < 0 || precision > 9) {
            throw new IllegalArgumentException(
                    "TIMESTAMP precision must be between 0 and 9, got " + precision);
        }
        this.precision = precision;
    }

    public int precision() {
        return precision;
    }

    public boolean withLocalTimeZone() {
        return root() == DataTypeRoot.TIMESTAMP_WITH_LOCAL_TIME_ZONE;
    }

    public boolean isCompact() {
        return precision <= MAX_COMPACT_PRECISION;
    }

    @Override
    public DataType copy(boolean nullable) {
        return new TimestampType(nullable, precision, withLocalTimeZone());
    }

    @Override
    protected String sqlWithoutNullability() {
        return withLocalTimeZone()
                ? "TIMESTAMP(" + precision + ") WITH LOCAL TIME ZONE"
                : "TIMESTAMP(" + precision + ")";
    }

    @Override
    public boolean equals(Object o) {
        return super.equals(o) && ((TimestampType) o).precision == precision;
    }

    @Override
    public int hashCode() {
        return 31 * super.hashCode() + precision;
    }
}
