package dev.streamhouse.storage.data;

import dev.streamhouse.storage.types.DecimalType;

import java.io.Serializable;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;

/**
 * A decimal of fixed precision and scale. Values of precision ≤ 18 are held as an unscaled long
 * ("compact"); larger ones as a {@link BigDecimal}.
 */
public final class Decimal implements Comparable<Decimal>, Serializable {
    private static final long serialVersionUID = 1L;

    private final int precision;
    private final int scale;
    private final long unscaledLong;
    private final BigDecimal bigDecimal;

    private Decimal(int precision, int scale, long unscaledLong, BigDecimal bigDecimal) {
        this.precision = precision;
        this.scale = scale;
        this.unscaledLong = unscaledLong;
        this.bigDecimal = bigDecimal;
    }

    public static Decimal fromUnscaledLong(long unscaled, int precision, int scale) {
        if (precision > DecimalType.MAX_COMPACT_PRECISION) {
            return new Decimal(precision, scale, 0, BigDecimal.valueOf(unscaled, scale));
        }
        return new Decimal(precision, scale, unscaled, null);
    }

    /**
     * Converts a BigDecimal to the given precision and scale, rounding HALF_UP; returns null if the
     * value does not fit the precision (the SQL overflow behaviour).
     */
    public static Decimal fromBigDecimal(BigDecimal value, int precision, int scale) {
        BigDecimal scaled = value.setScale(scale, RoundingMode.HALF_UP);
        if (scaled.precision() > precision) {
            return null;
        }
        if (precision <= DecimalType.MAX_COMPACT_PRECISION) {
            return new Decimal(precision, scale, scaled.unscaledValue().longValueExact(), null);
        }
        return new Decimal(precision, scale, 0, scaled);
    }

    /** From two's-complement big-endian unscaled bytes, as stored in rows and Parquet. */
    public static Decimal fromUnscaledBytes(byte[] unscaled, int precision, int scale) {
        BigInteger bi = new BigInteger(unscaled);
        if (precision <= DecimalType.MAX_COMPACT_PRECISION) {
            return new Decimal(precision, scale, bi.longValue(), null);
        }
        return new Decimal(precision, scale, 0, new BigDecimal(bi, scale));
    }

    public int precision() {
        return precision;
    }

    public int scale() {
        return scale;
    }

    public boolean isCompact() {
        return bigDecimal == null;
    }

    /** The unscaled value; only valid for compact decimals. */
    public long toUnscaledLong() {
        if (bigDecimal != null) {
            return bigDecimal.unscaledValue().longValueExact();
        }
        return unscaledLong;
    }

    public BigDecimal toBigDecimal() {
        return bigDecimal != null ? bigDecimal : BigDecimal.valueOf(unscaledLong, scale);
    }

    /** Two's-complement big-endian unscaled bytes (minimal length). */
    public byte[] toUnscaledBytes() {
        return toBigDecimal().unscaledValue().toByteArray();
    }

    @Override
    public int compareTo(Decimal other) {
        if (bigDecimal == null && other.bigDecimal == null && scale == other.scale) {
            return Long.compare(unscaledLong, other.unscaledLong);
        }
        return toBigDecimal().compareTo(other.toBigDecimal());
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof Decimal)) {
            return false;
        }
        Decimal that = (Decimal) o;
        return scale == that.scale && compareTo(that) == 0;
    }

    @Override
    public int hashCode() {
        return toBigDecimal().stripTrailingZeros().hashCode();
    }

    @Override
    public String toString() {
        return toBigDecimal().toPlainString();
    }
}
