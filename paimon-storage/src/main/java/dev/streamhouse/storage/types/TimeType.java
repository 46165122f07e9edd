package dev.streamhouse.storage.types;

/** {@code TIME(p)}, stored as milliseconds of the day. */
public final class TimeType extends DataType {
    private static final long serialVersionUID = 1L;

    private final int precision;

    public TimeType(boolean nullable, int precision) {
        super(nullable, DataTypeRoot.TIME_WITHOUT_TIME_ZONE);
        if (precision < 0 || precision > 9) {
            throw new IllegalArgumentException("TIME precision must be between 0 and 9, got " + precision);
        }
        this.precision = precision;
    }

    public int precision() {
        return precision;
    }

    @Override
    public DataType copy(boolean nullable) {
        return new TimeType(nullable, precision);
    }

    @Override
    protected String sqlWithoutNullability() {
        return "TIME(" + precision + ")";
    }

    @Override
    public boolean equals(Object o) {
        return super.equals(o) && ((TimeType) o).precision == precision;
    }

    @Override
    public int hashCode() {
        return 31 * super.hashCode() + precision;
    }
}
